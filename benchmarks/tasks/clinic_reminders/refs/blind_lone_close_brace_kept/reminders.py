"""Fill the front desk's SMS reminder templates."""

ALLOWED_FIELDS = {
    "patient.first_name": ("patient", "first_name"),
    "patient.last_name": ("patient", "last_name"),
    "doctor.name": ("doctor", "name"),
    "appointment.date": ("appointment", "date"),
    "appointment.time": ("appointment", "time"),
    "appointment.room": ("appointment", "room"),
}


class TemplateError(ValueError):
    """The template uses something other than the allowed fields."""


def render_reminder(template, patient, doctor, appointment) -> str:
    records = {"patient": patient, "doctor": doctor, "appointment": appointment}
    out = []
    i = 0
    n = len(template)
    while i < n:
        ch = template[i]
        if ch == "{":
            if template.startswith("{{", i):
                out.append("{")
                i += 2
                continue
            end = template.find("}", i + 1)
            if end == -1:
                raise TemplateError("unclosed '{' in template")
            name = template[i + 1:end]
            if name not in ALLOWED_FIELDS:
                raise TemplateError(f"field not allowed: {{{name}}}")
            obj_name, attr = ALLOWED_FIELDS[name]
            out.append(str(getattr(records[obj_name], attr)))
            i = end + 1
        elif ch == "}" and template.startswith("}}", i):
            out.append("}")
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)
