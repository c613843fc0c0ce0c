"""What 'usable on a phone' means for a page, checked in Chromium (see test_site_phone.py)."""

from __future__ import annotations

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# In a phone's browser the page grows to fit whatever is wider than the screen, so the
# document's width says whether anything was cut off; a table may scroll sideways in its
# own box, but only with the hint above it showing.
_CHECK = """() => {
  const problems = [], W = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > W + 1)
    problems.push('page wider than the screen: ' + document.documentElement.scrollWidth + 'px');
  for (const box of document.querySelectorAll('.ws-scroll')) {
    const over = box.scrollWidth > box.clientWidth + 1;
    const hint = box.previousElementSibling;
    const shown = hint && hint.classList.contains('ws-scroll-hint') && hint.offsetParent !== null;
    const table = box.querySelector('table');
    const name = (table && table.className) || 'table';
    if (over && !shown) problems.push(name + ' scrolls without a hint');
    if (over && table && /ws-weapons|ws-damage/.test(table.className)) problems.push(name + ' scrolls on a phone');
  }
  return problems;
}"""


def phone_problems(page) -> list[str]:
    """What is cut off, or scrolls without saying so, on the page shown (at phone size)."""
    page.wait_for_load_state("load")
    return page.evaluate(_CHECK)


def hidden_columns(page, selector: str) -> list[str]:
    """Header cells of the tables matching `selector` that lie beyond their scroll box's right edge."""
    return page.evaluate("""sel => { const out = [];
      for (const t of document.querySelectorAll(sel)) { const box = t.closest('.ws-scroll').getBoundingClientRect();
        for (const th of t.querySelectorAll('th')) if (th.getBoundingClientRect().right > box.right + 1) out.push(th.textContent); }
      return out; }""", selector)
