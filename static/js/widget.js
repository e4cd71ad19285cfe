// /embed/widget.js, the widget's script snippet: it puts the event's ticket widget (data-event, or
// one ticket type: data-type) after its own <script> tag, from the Palaro site it came from, and
// opens Palaro's buy flow (/embed/b/{code}) in a dialog over the organizer's page when a Buy button
// of the widget asks for it. It takes messages only from Palaro's origin and from its own frames,
// and names Palaro's origin on every message it sends. When an order is placed in the dialog it
// fires a "palaro:order" event on document (detail.order is the order's id), and on closing it
// reloads the widget so that the availability shown is current.
(function () {
  "use strict";
  var s = document.currentScript;
  if (!s || !s.dataset.event) {
    return;
  }
  var origin = new URL(s.src).origin;
  var src = origin + "/embed/e/" + encodeURIComponent(s.dataset.event);
  if (s.dataset.type) {
    src += "?type=" + encodeURIComponent(s.dataset.type);
  }
  var widget = document.createElement("iframe");
  widget.src = src;
  widget.title = s.dataset.title || "Tickets";
  widget.loading = "lazy";
  widget.width = "100%";
  widget.height = s.dataset.height || "480";
  widget.style.border = "0";
  widget.style.maxWidth = "640px";
  s.parentNode.insertBefore(widget, s.nextSibling);

  var dialog, frame, ticket = "", ordered = false, focusAfterLoad = "";

  function hello(w) {
    if (w) {
      w.postMessage({ type: "palaro:hello" }, origin);
    }
  }
  widget.addEventListener("load", function () {
    hello(widget.contentWindow);
    if (focusAfterLoad) {
      widget.contentWindow.postMessage({ type: "palaro:focus", ticket: focusAfterLoad }, origin);
      focusAfterLoad = "";
    }
  });

  function style(el, props) {
    for (var k in props) {
      el.style[k] = props[k];
    }
  }

  // makeDialog builds the overlay once: a modal <dialog> (the page behind is inert, so focus stays
  // in it) with a close button and the buy flow's frame, full screen on a phone.
  function makeDialog() {
    dialog = document.createElement("dialog");
    dialog.setAttribute("aria-label", "Buy tickets");
    dialog.className = "palaro-overlay";
    style(dialog, { padding: "0", border: "0", borderRadius: "8px", width: "100vw", maxWidth: "min(640px, 100vw)",
      height: "100vh", maxHeight: "min(860px, 100vh)", background: "#fff", overflow: "hidden", boxSizing: "border-box" });
    var bar = document.createElement("div");
    style(bar, { display: "flex", justifyContent: "flex-end", height: "48px", boxSizing: "border-box", padding: "2px 4px",
      borderBottom: "1px solid #ddd", background: "#fff" });
    var close = document.createElement("button");
    close.type = "button";
    close.className = "palaro-overlay-close";
    close.setAttribute("aria-label", "Close");
    close.textContent = "\u00d7";
    style(close, { minWidth: "44px", minHeight: "44px", font: "28px/1 sans-serif", border: "0", background: "transparent",
      color: "#222", cursor: "pointer" });
    close.addEventListener("click", closeDialog);
    bar.appendChild(close);
    frame = document.createElement("iframe");
    frame.title = "Buy tickets on Palaro";
    style(frame, { display: "block", width: "100%", height: "calc(100% - 48px)", border: "0" });
    frame.addEventListener("load", function () { hello(frame.contentWindow); });
    dialog.appendChild(bar);
    dialog.appendChild(frame);
    // Escape while the focus is on the page's side (the close button): the dialog's cancel
    dialog.addEventListener("cancel", function (e) {
      e.preventDefault();
      closeDialog();
    });
    document.body.appendChild(dialog);
  }

  function openDialog(code) {
    if (!dialog) {
      makeDialog();
    }
    ticket = code;
    frame.src = origin + "/embed/b/" + encodeURIComponent(code);
    dialog.showModal();
    dialog.querySelector(".palaro-overlay-close").focus();
  }

  // closeDialog closes the overlay and gives the focus back to the Buy button that opened it,
  // after reloading the widget when an order changed what it shows.
  function closeDialog() {
    if (!dialog || !dialog.open) {
      return;
    }
    dialog.close();
    frame.src = "about:blank";
    widget.focus();
    if (ordered) {
      ordered = false;
      focusAfterLoad = ticket;
      widget.src = src;
    } else {
      widget.contentWindow.postMessage({ type: "palaro:focus", ticket: ticket }, origin);
    }
  }

  window.addEventListener("message", function (e) {
    if (e.origin !== origin || !e.data || typeof e.data.type !== "string") {
      return;
    }
    var d = e.data;
    if (e.source === widget.contentWindow && d.type === "palaro:buy" && /^[a-z0-9-]{1,80}$/.test(d.ticket)) {
      openDialog(d.ticket);
    } else if (frame && e.source === frame.contentWindow) {
      if (d.type === "palaro:close") {
        closeDialog();
      } else if (d.type === "palaro:ordered" && typeof d.order === "string") {
        ordered = true;
        document.dispatchEvent(new CustomEvent("palaro:order", { detail: { order: d.order } }));
      }
    }
  });
})();
