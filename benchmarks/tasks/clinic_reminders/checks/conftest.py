import pytest

from models import Appointment, Doctor, Patient

# What must never reach an SMS: the fields that are not allowed, and what only an object's repr,
# its class or its attributes' internals show.
SECRETS = ["555-0199", "1984-07-02", "Diabetic", "insulin", "MD-448812", "Oncology"]
LEAK_SIGNS = ["Patient", "Doctor", "Appointment", "<class", "<bound", "<function", "<built-in",
              "<method", "models", "'first_name'", "__builtins__", "0x", "mappingproxy"]


@pytest.fixture
def records():
    patient = Patient(first_name="Ana", last_name="Silva", phone="555-0199",
                      date_of_birth="1984-07-02", notes="Diabetic; insulin 10u at night")
    doctor = Doctor(name="Dr. Amara Okafor", specialty="Oncology", license_number="MD-448812")
    appointment = Appointment(date="2026-03-14", time="09:30", room="B12")
    return patient, doctor, appointment
