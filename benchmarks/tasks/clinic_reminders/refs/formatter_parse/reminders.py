from string import Formatter

ALLOWED = {
    ("patient", "first_name"), ("patient", "last_name"), ("doctor", "name"),
    ("appointment", "date"), ("appointment", "time"), ("appointment", "room"),
}


class TemplateError(ValueError):
    pass


def render_reminder(template, patient, doctor, appointment):
    objects = {"patient": patient, "doctor": doctor, "appointment": appointment}
    try:
        pieces = list(Formatter().parse(template))
    except ValueError as exc:  # a { or } on its own
        raise TemplateError(str(exc)) from None
    # parse() reads {x:} and {x!} as {x}: the template must be exactly its fields and text
    rebuilt = "".join(lit.replace("{", "{{").replace("}", "}}") + ("" if f is None else "{" + f + "}")
                      for lit, f, _, _ in pieces)
    if rebuilt != template:
        raise TemplateError("a field is not written as {record.attribute}")
    out = []
    for literal, field, spec, conversion in pieces:
        out.append(literal)
        if field is None:
            continue
        key = tuple(field.split("."))
        if key not in ALLOWED or spec or conversion:
            raise TemplateError(f"field not allowed: {field!r}")
        out.append(getattr(objects[key[0]], key[1]))
    return "".join(out)
