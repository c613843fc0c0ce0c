/* Place a rule tooltip beside its link, inside the window: the tooltip is position: fixed, so
   a table's scroll box cannot clip it. Delegated from the document, so it keeps working when
   the theme swaps pages without reloading (navigation.instant). */
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
