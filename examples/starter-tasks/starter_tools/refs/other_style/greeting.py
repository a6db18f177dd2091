def greeting(name: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned:
        return "Hello, stranger!"
    return "Hello, " + cleaned + "!"
