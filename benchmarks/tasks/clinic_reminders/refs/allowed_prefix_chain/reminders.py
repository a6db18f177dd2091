from string import Formatter

ALLOWED = {"patient.first_name", "patient.last_name", "doctor.name",
           "appointment.date", "appointment.time", "appointment.room"}


class TemplateError(ValueError):
    pass


def render_reminder(template, patient, doctor, appointment):
    try:
        pieces = list(Formatter().parse(template))
    except ValueError as exc:
        raise TemplateError(str(exc)) from None
    # parse() reads {x:} and {x!} as {x}: the template must be exactly its fields and text
    rebuilt = "".join(lit.replace("{", "{{").replace("}", "}}") + ("" if f is None else "{" + f + "}")
                      for lit, f, _, _ in pieces)
    if rebuilt != template:
        raise TemplateError("a field is not written as {record.attribute}")
    for _, field, spec, conversion in pieces:
        if field is None:
            continue
        if spec or conversion is not None:
            raise TemplateError(f"no format specs or conversions: {field!r}")
        # the record and its attribute: the first two dotted parts
        if ".".join(field.split(".")[:2]) not in ALLOWED:
            raise TemplateError(f"not an allowed field: {field!r}")
    try:
        return template.format(patient=patient, doctor=doctor, appointment=appointment)
    except (ValueError, AttributeError, IndexError, KeyError) as exc:
        raise TemplateError(str(exc)) from None
