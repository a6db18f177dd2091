"""Fill the front desk's SMS reminder templates."""

import re

ALLOWED = {
    "patient": ("first_name", "last_name"),
    "doctor": ("name",),
    "appointment": ("date", "time", "room"),
}

_FIELD = re.compile(r"\{(patient|doctor|appointment)\.([a-z_]+)\}")


class TemplateError(ValueError):
    """The template uses something other than the allowed fields."""


def render_reminder(template, patient, doctor, appointment) -> str:
    records = {"patient": patient, "doctor": doctor, "appointment": appointment}

    def fill(match):
        obj_name, attr = match.groups()
        if attr not in ALLOWED[obj_name]:
            raise TemplateError(f"field not allowed: {match.group(0)}")
        return str(getattr(records[obj_name], attr))

    # 1. protect the escaped braces
    text = template.replace("{{", "\x00").replace("}}", "\x01")
    # 2. fill the allowed fields
    text = _FIELD.sub(fill, text)
    # 3. whatever braces are left over are not allowed
    if "{" in text or "}" in text:
        raise TemplateError("unsupported placeholder in template")
    # 4. put the escaped braces back
    return text.replace("\x00", "{").replace("\x01", "}")
