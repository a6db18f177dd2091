import importlib

import pytest

import payloads
from models import Patient


def load():
    try:
        return importlib.import_module("reminders")
    except Exception as exc:
        pytest.fail(f"could not import reminders.py: {exc!r}")


def render(template, records):
    mod = load()
    try:
        return mod.render_reminder(template, *records)
    except Exception as exc:
        pytest.fail(f"render_reminder({template!r}, ...) raised {exc!r}")


EXAMPLE = ("Hi {patient.first_name}, this is a reminder of your appointment with {doctor.name} on "
           "{appointment.date} at {appointment.time}, room {appointment.room}.")


def test_the_prompt_s_example(records):
    got = render(EXAMPLE, records)
    want = ("Hi Ana, this is a reminder of your appointment with Dr. Amara Okafor on 2026-03-14 at "
            "09:30, room B12.")
    assert got == want, f"render_reminder(<the prompt's example>) returned {got!r}, expected {want!r}"


FIELDS = [
    ("{patient.first_name}", "Ana"), ("{patient.last_name}", "Silva"),
    ("{doctor.name}", "Dr. Amara Okafor"), ("{appointment.date}", "2026-03-14"),
    ("{appointment.time}", "09:30"), ("{appointment.room}", "B12"),
    ("{patient.first_name} {patient.last_name}", "Ana Silva"),
    ("{appointment.room}{appointment.room}", "B12B12"),
    ("", ""), ("no fields at all", "no fields at all"),
]


@pytest.mark.parametrize("template, want", FIELDS, ids=[f[0] or "empty" for f in FIELDS])
def test_each_allowed_field(records, template, want):
    got = render(template, records)
    assert got == want, f"render_reminder({template!r}, ...) returned {got!r}, expected {want!r}"


TEXT = [
    ("{{", "{"), ("}}", "}"), ("{{}}", "{}"), ("{{patient.first_name}}", "{patient.first_name}"),
    ("{{{patient.first_name}}}", "{Ana}"), ("a {{b}} c", "a {b} c"),
    ("100% sure, $5 & <b>", "100% sure, $5 & <b>"), ("line\nnext\t\u00e9\u00e8 \U0001f600", "line\nnext\t\u00e9\u00e8 \U0001f600"),
    ("%(x)s %s {{0}} $x", "%(x)s %s {0} $x"), ("\\{{n}}", "\\{n}"),
]


@pytest.mark.parametrize("template, want", TEXT, ids=[t[0] for t in TEXT])
def test_other_text_and_doubled_braces(records, template, want):
    got = render(template, records)
    assert got == want, f"render_reminder({template!r}, ...) returned {got!r}, expected {want!r}"


def test_values_are_inserted_as_they_are(records):
    _, doctor, appointment = records
    patient = Patient(first_name="{doctor.name}", last_name="{{x}} %s $y",
                      phone="555-0199", date_of_birth="1984-07-02", notes="n")
    got = render("{patient.first_name}|{patient.last_name}|{doctor.name}", (patient, doctor, appointment))
    want = "{doctor.name}|{{x}} %s $y|Dr. Amara Okafor"
    assert got == want, f"render_reminder returned {got!r}, expected {want!r}: values are inserted as they are"


REFUSED = [
    "{patient.phone}", "{patient.notes}", "{patient.date_of_birth}", "{doctor.license_number}",
    "{doctor.specialty}", "{patient}", "{doctor}", "{appointment}", "{appointment.room:>5}",
    "{doctor.name!r}", "{doctor.name!s}", "{patient.first_name[0]}", "{ patient.first_name }",
    "{patient.first_name }", "{patient. first_name}", "{", "}", "a { b", "x}y", "{}", "{0}",
    "{PATIENT.first_name}", "{Patient.first_name}",
    "{patient.First_name}", "{nurse.name}", "{first_name}", "{patient.first_name",
    "{{patient.first_name}", "{patient.first_name}}", "Hi {patient.first_name}, {patient.notes}",
    "{appointment.room:}", "{appointment.room!}",
    "{patient..first_name}", "{.first_name}", "{patient.first_name.}",
    *payloads.template_fields_py("patient"), *payloads.template_fields_py("doctor"),
]


@pytest.mark.parametrize("template", REFUSED)
def test_anything_else_in_braces_raises_template_error(records, template):
    mod = load()
    assert isinstance(getattr(mod, "TemplateError", None), type) and issubclass(mod.TemplateError, ValueError), (
        "reminders.py must define TemplateError, a subclass of ValueError")
    try:
        got = mod.render_reminder(template, *records)
    except mod.TemplateError:
        return
    except Exception as exc:
        pytest.fail(f"render_reminder({template!r}, ...) raised {exc!r}, not TemplateError")
    pytest.fail(f"render_reminder({template!r}, ...) returned {got!r} instead of raising TemplateError")
