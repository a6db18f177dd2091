import re


class TemplateError(ValueError):
    pass


ALLOWED = {"patient.first_name", "patient.last_name", "doctor.name",
           "appointment.date", "appointment.time", "appointment.room"}


def render_reminder(template, patient, doctor, appointment):
    for field in re.findall(r"\{(\w+\.\w+)\}", template):
        if field not in ALLOWED:
            raise TemplateError(field)
    try:
        return template.format(patient=patient, doctor=doctor, appointment=appointment)
    except (KeyError, AttributeError, IndexError, ValueError) as exc:
        raise TemplateError(str(exc)) from None
