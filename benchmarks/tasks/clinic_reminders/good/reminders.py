"""Fill the front desk's SMS reminder templates with the six fields a message may show."""

import re

from models import Appointment, Doctor, Patient

ALLOWED = {
    "patient.first_name",
    "patient.last_name",
    "doctor.name",
    "appointment.date",
    "appointment.time",
    "appointment.room",
}
# a literal brace pair, a field, or a brace on its own (an error)
_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


class TemplateError(ValueError):
    """A template that asks for something a message may not show."""


def render_reminder(template: str, patient: Patient, doctor: Doctor, appointment: Appointment) -> str:
    records = {"patient": patient, "doctor": doctor, "appointment": appointment}
    out: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(template):
        out.append(template[pos : m.start()])
        pos = m.end()
        token = m.group(0)
        if token in ("{{", "}}"):
            out.append(token[0])
            continue
        field = m.group(1)
        if field is None or field not in ALLOWED:
            raise TemplateError(f"not an allowed field: {token!r}")
        record, attribute = field.split(".")
        out.append(getattr(records[record], attribute))
    out.append(template[pos:])
    return "".join(out)
