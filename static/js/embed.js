// The script of Palaro's framed pages (/embed/): it talks with widget.js on the organizer's page
// by postMessage, and only with a parent page of a site the event lists (data-embed-origins), once
// that page said hello; without widget.js (a plain iframe) it does nothing and links open Palaro in
// a new tab. Messages out always name the parent's origin, never '*'.
(function () {
  "use strict";
  var body = document.body;
  var origins = (body.getAttribute("data-embed-origins") || "").split(" ").filter(Boolean);
  var parentOrigin = "";

  function send(msg) {
    if (parentOrigin) {
      window.parent.postMessage(msg, parentOrigin);
    }
  }

  window.addEventListener("message", function (e) {
    if (window.parent === window || e.source !== window.parent || origins.indexOf(e.origin) < 0) {
      return;
    }
    var d = e.data || {};
    if (d.type === "palaro:hello" && !parentOrigin) {
      parentOrigin = e.origin;
      greeted();
    } else if (d.type === "palaro:focus" && e.origin === parentOrigin && typeof d.ticket === "string") {
      var buy = document.querySelectorAll("[data-embed-buy]");
      for (var i = 0; i < buy.length; i++) {
        if (buy[i].getAttribute("data-embed-buy") === d.ticket) {
          buy[i].focus();
        }
      }
    }
  });

  // greeted: widget.js is on the parent page; the widget's Buy buttons open the overlay, and the
  // overlay's pages can close it.
  function greeted() {
    body.setAttribute("data-embed-greeted", "");
    var done = document.querySelector(".embed-done");
    if (done) {
      done.hidden = false;
    }
    var order = body.getAttribute("data-embed-order");
    if (order && !body.hasAttribute("data-embed-pending")) {
      send({ type: "palaro:ordered", order: order });
    }
  }

  document.addEventListener("click", function (e) {
    var t = e.target instanceof Element ? e.target : null;
    var buy = t && t.closest("a[data-embed-overlay]");
    if (buy && parentOrigin) {
      e.preventDefault();
      send({ type: "palaro:buy", ticket: buy.getAttribute("data-embed-buy") });
    } else if (t && t.closest("[data-embed-close]")) {
      send({ type: "palaro:close" });
    }
  });

  // Escape inside the overlay's frame closes it: the parent page never sees keys typed here.
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && body.classList.contains("embed-flow")) {
      send({ type: "palaro:close" });
    }
  });

  // A pending order: follow it (every 3 s) until it is paid, then show it.
  if (body.hasAttribute("data-embed-pending")) {
    var poll = window.setInterval(function () {
      fetch(location.href, { credentials: "omit", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (html) {
          if (html && html.indexOf("data-embed-pending") < 0) {
            window.clearInterval(poll);
            location.reload();
          }
        })
        .catch(function () {});
    }, 3000);
  }
})();
