import re

FIELDS = {"patient": ("first_name", "last_name"), "doctor": ("name",),
          "appointment": ("date", "time", "room")}


class TemplateError(ValueError):
    pass


def render_reminder(template, patient, doctor, appointment):
    objs = {"patient": patient, "doctor": doctor, "appointment": appointment}

    def fill(m):
        if m.group(0) == "{{":
            return "{"
        if m.group(0) == "}}":
            return "}"
        obj, attr = m.group(1), m.group(2)
        if attr in FIELDS.get(obj, ()):
            return getattr(objs[obj], attr)
        return m.group(0)  # not a field we know: keep the text

    return re.sub(r"\{\{|\}\}|\{(\w+)\.(\w+)\}", fill, template)
