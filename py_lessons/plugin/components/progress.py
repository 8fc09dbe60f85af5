"""``complete`` (the lesson's "I have finished" stamp) and ``progress`` (the course overview).

    ```complete
    ```

    ```progress
    ```

Both are filled in by plain JS from localStorage; the build only lists which pages are lessons
(every page with a ``complete`` block) so the home page can count them.
"""

from __future__ import annotations

from ..strings import t
from .common import attr, check_keys, component_id, load_yaml, relative_url, text


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


def render_progress(lesson_list: list[dict], page_url: str) -> str:
    items = "".join(
        f'<li data-lesson="{attr(lesson["id"])}" data-state="incomplete">'
        f'<a href="{attr(relative_url(lesson["url"], page_url))}">{text(lesson["title"])}</a> '
        f'<span class="pz-lesson-state" data-lesson-state>{text(t("progress.lesson.todo"))}</span></li>'
        for lesson in lesson_list
    )
    return (
        f'<div class="pz-progress" data-component="progress" data-id="course" data-total="{len(lesson_list)}">'
        f'<p class="pz-status" role="status" aria-live="polite" data-status></p>'
        f'<progress max="{len(lesson_list)}" value="0" aria-label="{attr(t("progress.label"))}"></progress>'
        f'<ul class="pz-lessons">{items}</ul></div>'
    )
