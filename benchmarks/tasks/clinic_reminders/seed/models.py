"""The clinic's records, as the booking system loads them."""

from dataclasses import dataclass


@dataclass
class Patient:
    first_name: str
    last_name: str
    phone: str
    date_of_birth: str  # "1984-07-02"
    notes: str  # clinical notes: never in a message


@dataclass
class Doctor:
    name: str  # "Dr. Amara Okafor"
    specialty: str
    license_number: str


@dataclass
class Appointment:
    date: str  # "2026-03-14"
    time: str  # "09:30"
    room: str
