def set_cookie_header(name: str, value: str) -> str:
    return f"Set-Cookie: {name}={value}; Path=/; HttpOnly"
