"""``complete`` (the lesson's "I have finished" stamp) and ``progress`` (the course overview).

    ```complete
    ```

    ```progress
    ```

Both are filled in by plain JS from localStorage; the build only lists which pages are lessons
(every page with a ``complete`` block) so the home page can count them.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from mkdocs.utils import get_relative_url

from ..strings import t
from .common import attr, check_keys, component_id, fence_blocks, load_yaml, text


def page_slug(src_uri: str) -> str:
    # the same slug the cells use for their default ids (plugin.on_page_markdown)
    slug = PurePosixPath(src_uri).with_suffix("").as_posix().replace("/", "-").lower()
    return "index" if slug == "index" else slug.removesuffix("-index")


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


def lessons(files) -> list[dict]:
    """Every documentation page with a ``complete`` block, in file order: id, url, title."""
    found = []
    for file in sorted(files.documentation_pages(), key=lambda f: f.src_uri):
        try:
            source = file.content_string
        except (OSError, UnicodeDecodeError):
            continue
        blocks = [body for name, _line, body in fence_blocks(source, {"complete"})]
        if not blocks:
            continue
        title = next((line[2:].strip() for line in source.splitlines() if line.startswith("# ")), file.src_uri)
        parsed = parse_complete(blocks[0], page_slug(file.src_uri))
        found.append({"id": parsed["id"], "url": file.url, "title": title})
    return found


def render_progress(lesson_list: list[dict], page_url: str) -> str:
    items = "".join(
        f'<li data-lesson="{attr(lesson["id"])}" data-state="incomplete">'
        f'<a href="{attr(get_relative_url(lesson["url"], page_url))}">{text(lesson["title"])}</a> '
        f'<span class="pz-lesson-state" data-lesson-state>{text(t("progress.lesson.todo"))}</span></li>'
        for lesson in lesson_list
    )
    return (
        f'<div class="pz-progress" data-component="progress" data-id="course" data-total="{len(lesson_list)}">'
        f'<p class="pz-status" role="status" aria-live="polite" data-status></p>'
        f'<progress max="{len(lesson_list)}" value="0" aria-label="{attr(t("progress.label"))}"></progress>'
        f'<ul class="pz-lessons">{items}</ul></div>'
    )
