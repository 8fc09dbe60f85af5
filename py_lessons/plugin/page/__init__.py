"""Reading a page: its fences, cells and blocks into the page model, its prose and the checks on
it, value macros and the selectors they share with cell claims, and the course's lessons.
Imports only base/."""
