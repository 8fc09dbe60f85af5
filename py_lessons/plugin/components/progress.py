"""``complete``: the lesson's "I have finished" stamp; a page with one is a lesson (course.py).

    ```complete
    ```

Filled in by plain JS from localStorage (assets/components/progress.js), which also fills in the
course's front door (the ``progress`` block, rendered by course.py).
"""

from __future__ import annotations

from ..strings import t
from .common import attr, check_keys, component_id, load_yaml, text


def parse_complete(source: str, slug: str) -> dict:
    data = load_yaml(source, "complete")
    check_keys(data, "complete", set(), {"id"})
    return {"id": component_id(data, "complete") if "id" in data else slug}


def render_complete(parsed: dict) -> str:
    cid = parsed["id"]
    return (
        f'<div class="pz-complete" data-component="complete" data-id="{attr(cid)}" data-state="incomplete">'
        f'<button type="button" class="pz-button pz-stamp" data-action="complete" aria-pressed="false">'
        f'{text(t("complete.button"))}</button>'
        f'<p class="pz-status" role="status" aria-live="polite" data-status></p></div>'
    )
