/* Place a rule tooltip beside its link, inside the window: the tooltip is position: fixed, so
   a table's scroll box cannot clip it. Delegated from the document, so it keeps working when
   the theme swaps pages without reloading (navigation.instant, should a site turn it on). */
(function () {
  function place(event) {
    var holder = event.target.closest && event.target.closest(".ws-tipped");
    if (!holder) return;
    var tip = holder.querySelector(".ws-tip");
    if (!tip) return;
    var link = holder.getBoundingClientRect();
    tip.style.left = "0px";
    tip.style.top = "0px";
    var box = tip.getBoundingClientRect();
    var left = Math.max(8, Math.min(link.left, window.innerWidth - box.width - 8));
    var top = link.bottom + 4;
    if (top + box.height > window.innerHeight - 8) top = Math.max(8, link.top - box.height - 4);
    tip.style.left = left + "px";
    tip.style.top = top + "px";
  }
  document.addEventListener("mouseover", place);
  document.addEventListener("focusin", place);
})();
/* A table wider than the screen says so: a hint above it and shadows at the edge with more
   beyond (warscribe.css); on resize and on every page the theme swaps in. */
(function () {
  function mark() {
    document.querySelectorAll(".ws-scroll").forEach(function (box) {
      var hint = box.previousElementSibling;
      if (!hint || !hint.classList.contains("ws-scroll-hint")) {
        hint = document.createElement("p");
        hint.className = "ws-scroll-hint";
        hint.textContent = "Scroll sideways for more →";
        box.parentNode.insertBefore(hint, box);
      }
      var over = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("ws-overflow", over);
      hint.classList.toggle("ws-on", over);
    });
  }
  var timer = null;
  window.addEventListener("resize", function () { clearTimeout(timer); timer = setTimeout(mark, 100); });
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(mark);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mark);
  else mark();
})();
