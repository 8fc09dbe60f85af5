"""``complete``: the lesson's "I have finished" stamp; a page with one is a lesson (page/lessons.py).

    ```complete
    ```

Filled in by plain JS from localStorage (assets/components/progress.js), which also fills in the
course's front door (the ``progress`` block, progress.py).
"""

from __future__ import annotations

from ...base.html import attr, text
from ...base.strings import t
from ...base.yaml_blocks import block_id, read_block
from ...page.lessons import STAMP_KIND
from .base import Component


class Complete(Component):
    kind = STAMP_KIND
    script = "progress.js"

    def parse(self, body, page):
        return parse_complete(body, page.slug)

    def render(self, parsed, page):
        return render_complete(parsed)


def parse_complete(source: str, slug: str) -> dict:
    data = read_block(source, "complete", set(), {"id"})
    return {"id": block_id(data, "complete") if "id" in data else slug}


def render_complete(parsed: dict) -> str:
    cid = parsed["id"]
    return (
        f'<div class="pz-complete" data-component="complete" data-id="{attr(cid)}" data-state="incomplete">'
        f'<button type="button" class="pz-button pz-stamp" data-action="complete" aria-pressed="false">'
        f'{text(t("complete.button"))}</button>'
        f'<p class="pz-status" role="status" aria-live="polite" data-status></p></div>'
    )
