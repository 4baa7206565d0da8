// Every time the hall shows is written in UTC by the town, in one format ("1 May 2026 at 14:32 UTC",
// hall/shown.py stamp). This says it again beside it in this device's own time and zone, in the same
// format (the month by its name, in English as the page is), unless the device keeps UTC already.
// Without this script the page still says UTC.
"use strict";

(function () {
  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December"];

  function pad(n) {
    return String(n).padStart(2, "0");
  }

  function zoneOf(when) {
    try {
      const parts = new Intl.DateTimeFormat([], { timeZoneName: "short" }).formatToParts(when);
      const zone = parts.find((p) => p.type === "timeZoneName");
      return zone ? zone.value : "";
    } catch (e) {
      return "";
    }
  }

  function run() {
    document.querySelectorAll("time.when[datetime]").forEach(say);
  }

  function say(el) {
    const when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime()) || when.getTimezoneOffset() === 0) return;
    if (el.querySelector(".when-here")) return;
    const here = document.createElement("span");
    here.className = "when-here";
    const day = when.getDate() + " " + MONTHS[when.getMonth()] + " " + when.getFullYear();
    const zone = zoneOf(when);
    here.textContent = " (" + day + " at " + pad(when.getHours()) + ":" + pad(when.getMinutes()) + (zone ? " " + zone : "") + " your time)";
    // Inside the <time>, so a list that lays its items out in a row keeps the two together.
    el.append(here);
  }

  window.hallTimes = run;
  run();
})();
