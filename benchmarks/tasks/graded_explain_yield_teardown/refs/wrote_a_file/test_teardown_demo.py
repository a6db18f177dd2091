import pytest

events = []


@pytest.fixture
def resource():
    events.append("setup")
    yield "resource"
    events.append("teardown")


def test_uses_resource(resource):
    assert resource == "resource"
