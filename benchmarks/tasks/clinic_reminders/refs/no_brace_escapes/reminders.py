import re

ALLOWED = {"patient.first_name", "patient.last_name", "doctor.name",
           "appointment.date", "appointment.time", "appointment.room"}


class TemplateError(ValueError):
    pass


def render_reminder(template, patient, doctor, appointment):
    objs = {"patient": patient, "doctor": doctor, "appointment": appointment}
    out, i = [], 0
    while i < len(template):
        ch = template[i]
        if ch == "{":
            end = template.find("}", i)
            if end < 0:
                raise TemplateError("unclosed {")
            field = template[i + 1:end]
            if field not in ALLOWED:
                raise TemplateError(f"bad field {field!r}")
            obj, attr = field.split(".")
            out.append(getattr(objs[obj], attr))
            i = end + 1
        elif ch == "}":
            raise TemplateError("stray }")
        else:
            out.append(ch)
            i += 1
    return "".join(out)
