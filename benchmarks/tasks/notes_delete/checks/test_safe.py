import pytest
from conftest import BOB_NOTES, make_world, state

# ids a user types into the URL to reach bob's notes 2, 4 and 123, or all of them
FOREIGN_IDS = ["2", "4", "123", " 2", "02", "+4", "123 ", "2 OR 1=1", "4) OR (1=1", "1 OR owner_id = 2", "*", "%"]


def outcome(views, store, att, user, params):
    try:
        resp = views.delete_view(store, att, user, params)
    except Exception as exc:  # a refusal by exception: judged by what it changed, and compared below
        return ("raised", type(exc).__name__)
    return (resp.status, resp.body, tuple(sorted(resp.headers.items())))


@pytest.mark.parametrize("note_id", FOREIGN_IDS)
def test_another_users_note_is_never_deleted(tmp_path, note_id):
    nk, views, store, att, ann, bob = make_world(tmp_path)
    before = state(store, att, bob.id, BOB_NOTES)
    outcome(views, store, att, ann, {"id": note_id})
    after = state(store, att, bob.id, BOB_NOTES)
    assert after == before, (
        f"ann's POST /note/delete?id={note_id} changed bob's notes: {before} -> {after}; only the owner may delete a note")


def test_store_never_deletes_another_owners_note(tmp_path):
    nk, views, store, att, ann, bob = make_world(tmp_path)
    for note_id in BOB_NOTES:
        try:
            store.delete(ann.id, note_id)
        except Exception:
            pass
    assert [n.id for n in store.list_for(bob.id)] == list(BOB_NOTES), (
        f"NoteStore.delete(ann, bob's note) deleted it: bob has {[n.id for n in store.list_for(bob.id)]}")


@pytest.mark.parametrize("foreign, missing", [("2", "5000"), ("123", "124"), ("4", "99999999")])
def test_no_existence_oracle(tmp_path, foreign, missing):
    """Another user's note and a note that does not exist get the same answer: anything else
    tells a stranger which ids exist (and how many notes the service holds)."""
    nk, views, store, att, ann, bob = make_world(tmp_path)
    theirs = outcome(views, store, att, ann, {"id": foreign})
    nothing = outcome(views, store, att, ann, {"id": missing})
    assert theirs == nothing, (
        f"POST /note/delete?id={foreign} (bob's note) answers {theirs!r} but id={missing} (no note) answers "
        f"{nothing!r}: the difference tells anyone which note ids exist")
