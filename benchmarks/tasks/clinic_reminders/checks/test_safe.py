import importlib

import pytest

import payloads
from conftest import LEAK_SIGNS, SECRETS
from models import Patient


def load():
    try:
        return importlib.import_module("reminders")
    except Exception as exc:
        pytest.fail(f"could not import reminders.py: {exc!r}")


ATTEMPTS = [
    "{patient.phone}", "{patient.notes}", "{patient.date_of_birth}", "{doctor.license_number}",
    "{doctor.specialty}", "{patient}", "{doctor}", "{appointment}", "{patient.notes!s}",
    "{patient.notes:}", "{patient.notes:.40}", "{doctor.license_number:>20}", "{patient.notes[0]}",
    "{patient.__dict__[notes]}", "{patient.first_name.__class__}", "{patient.first_name.upper}",
    "{patient.first_name:{patient.notes}}", "{ patient.notes }", "{patient.notes }",
    "{patient.Notes}", "{doctor.name!r}",
    "Hi {patient.first_name} {patient.notes}", "{appointment.room} {patient.phone}",
    "{{{patient.notes}}}", "{{patient.first_name}}{patient.notes}",
    *payloads.template_fields_py("patient"), *payloads.template_fields_py("doctor"),
    *payloads.template_fields_py("appointment"),
]


def leaks(text):
    return [s for s in SECRETS + LEAK_SIGNS if s in text]


@pytest.mark.parametrize("template", ATTEMPTS)
def test_a_template_never_shows_more_than_the_six_fields(records, template):
    mod = load()
    try:
        got = mod.render_reminder(template, *records)
    except Exception:
        return  # refusing is not what this check judges
    found = leaks(str(got))
    assert not found, (
        f"render_reminder({template!r}, ...) returned {got!r}, which shows {found} of the records: "
        "a template may reach the six allowed fields only")


def test_a_value_is_never_read_as_a_template(records):
    """A name a patient gave at sign-up is a value, not a template to fill again."""
    mod = load()
    _, doctor, appointment = records
    patient = Patient(first_name="{patient.notes}", last_name="{patient.phone}{patient!r}",
                      phone="555-0199", date_of_birth="1984-07-02", notes="Diabetic; insulin 10u")
    template = "Hi {patient.first_name} {patient.last_name}, see {doctor.name}"
    try:
        got = mod.render_reminder(template, patient, doctor, appointment)
    except Exception:
        return  # refusing is not what this check judges
    found = leaks(str(got))
    assert not found, (
        f"render_reminder({template!r}, ...) with a first name {patient.first_name!r} returned {got!r}, "
        f"which shows {found}: the values were read as a template again")


def test_a_nested_format_spec_cannot_spell_a_secret(records):
    """Each field in a format spec is looked up too: a fill character taken from the notes
    spells them out one letter after the time."""
    mod = load()
    template = "".join(f"{{appointment.time:{{patient.notes[{i}]}}<6}}" for i in range(8))
    try:
        got = mod.render_reminder(template, *records)
    except Exception:
        return  # refusing is not what this check judges
    spelled = str(got).replace("09:30", "")
    assert "Diabetic" not in spelled, (
        f"render_reminder({template!r}, ...) returned {got!r}: the format specs spell the patient's "
        "notes; a field inside a format spec is a field too")
