"""``my-work``: the reader's work on this device (progress, answers, exercise states, edited
cells) taken to another device as one file, brought back from one, or erased.

    ```my-work
    ```

The build writes the controls, hidden until assets/components/my-work.js takes them over (without
scripts there is nothing to export); the file's format is schemas/work-export.schema.json.
"""

from __future__ import annotations

from ...base.html import attr, text
from ...base.strings import t
from ...base.yaml_blocks import read_block
from .base import Component


class MyWork(Component):
    kind = "my-work"
    script = "my-work.js"

    def parse(self, body, page):
        return read_block(body, self.kind, set())

    def render(self, parsed, page):
        return render()


def render() -> str:
    return (
        f'<div class="pz-my-work" data-component="my-work" data-id="my-work">'
        f'<p>{text(t("work.intro"))}</p>'
        f'<p class="pz-learner-name" data-work-name hidden><label for="pz-learner-name">{text(t("work.name"))}</label> '
        f'<input type="text" id="pz-learner-name" maxlength="100" autocomplete="name" data-learner-name '
        f'aria-describedby="pz-learner-name-note"> '
        f'<span class="pz-note" id="pz-learner-name-note">{text(t("work.name.note"))}</span></p>'
        f'<div class="pz-actions" role="group" aria-label="{attr(t("work.actions"))}" data-work-actions hidden>'
        f'<button type="button" class="pz-button" data-action="export-work">{text(t("work.export"))}</button>'
        f'<label class="pz-button pz-file">{text(t("work.import"))}'
        f'<input type="file" accept=".json,application/json" data-action="import-work"></label>'
        f'<button type="button" class="pz-button" data-action="erase-work">{text(t("work.erase"))}</button></div>'
        f'<p class="pz-note">{text(t("work.rules"))}</p>'
        f'<div class="pz-import-preview" data-import-preview hidden>'
        f'<p data-preview-title></p><ul>'
        f'<li data-preview="new"></li><li data-preview="replaced"></li><li data-preview="kept"></li></ul>'
        f'<div class="pz-actions">'
        f'<button type="button" class="pz-button" data-action="apply-import">{text(t("work.apply"))}</button>'
        f'<button type="button" class="pz-button" data-action="cancel-import">{text(t("work.cancel"))}</button>'
        f'</div></div>'
        f'<p class="pz-status" role="status" aria-live="polite" data-status></p>'
        f'<dialog class="pz-dialog" data-erase-dialog aria-labelledby="pz-erase-title" aria-describedby="pz-erase-text">'
        f'<h3 id="pz-erase-title">{text(t("work.erase.title"))}</h3>'
        f'<p id="pz-erase-text">{text(t("work.erase.text"))}</p>'
        f'<div class="pz-actions">'
        f'<button type="button" class="pz-button" data-action="cancel-erase" autofocus>{text(t("work.erase.cancel"))}</button>'
        f'<button type="button" class="pz-button pz-danger" data-action="confirm-erase">{text(t("work.erase.confirm"))}</button>'
        f'</div></dialog></div>'
    )
