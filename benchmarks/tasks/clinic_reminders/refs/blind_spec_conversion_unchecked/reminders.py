"""Fill the front desk's SMS reminder templates."""

import string

ALLOWED_FIELDS = {
    "patient.first_name",
    "patient.last_name",
    "doctor.name",
    "appointment.date",
    "appointment.time",
    "appointment.room",
}


class TemplateError(ValueError):
    """The template uses something other than the allowed fields."""


_formatter = string.Formatter()


def render_reminder(template, patient, doctor, appointment) -> str:
    try:
        parsed = list(_formatter.parse(template))
    except ValueError as exc:  # a lone { or }
        raise TemplateError(str(exc)) from None
    for _literal, field_name, _spec, _conversion in parsed:
        if field_name is None:
            continue
        if field_name not in ALLOWED_FIELDS:
            raise TemplateError(f"field not allowed: {{{field_name}}}")
    try:
        return _formatter.format(
            template, patient=patient, doctor=doctor, appointment=appointment
        )
    except (ValueError, KeyError, AttributeError, IndexError) as exc:
        raise TemplateError(str(exc)) from None
