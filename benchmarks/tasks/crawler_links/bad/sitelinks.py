from urllib.parse import urljoin, urlsplit


def same_site_links(page_url, hrefs):
    parts = urlsplit(page_url)
    origin = f"{parts.scheme}://{parts.netloc}".lower()
    out = []
    for href in hrefs:
        url = urljoin(page_url, href.strip()).split("#")[0]
        if url.lower().startswith(origin) and url not in out:
            out.append(url)
    return out
