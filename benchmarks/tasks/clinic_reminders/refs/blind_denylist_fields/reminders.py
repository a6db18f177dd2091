"""Fill the front desk's SMS reminder templates."""

import re

# Attributes that must never be put in an SMS.
PRIVATE = {
    "patient": {"phone", "notes", "date_of_birth"},
    "doctor": {"license_number"},
    "appointment": set(),
}

_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_FIELD = re.compile(r"([a-z]+)\.([a-z_]+)")


class TemplateError(ValueError):
    """The template uses something other than the allowed fields."""


def render_reminder(template, patient, doctor, appointment) -> str:
    records = {"patient": patient, "doctor": doctor, "appointment": appointment}

    def replace(match):
        token = match.group(0)
        if token == "{{":
            return "{"
        if token == "}}":
            return "}"
        inner = match.group(1)
        if inner is None:
            raise TemplateError(f"unmatched {token!r}")
        field = _FIELD.fullmatch(inner)
        if not field:
            raise TemplateError(f"bad field: {token}")
        obj_name, attr = field.groups()
        if obj_name not in records or attr in PRIVATE[obj_name]:
            raise TemplateError(f"field not allowed: {token}")
        obj = records[obj_name]
        if attr.startswith("_") or not hasattr(obj, attr):
            raise TemplateError(f"unknown field: {token}")
        return str(getattr(obj, attr))

    return _TOKEN.sub(replace, template)
