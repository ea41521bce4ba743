// The console's only script besides htmx (the pages allow no inline script). Listened for on the document, so that
// pages htmx swaps in need nothing.

// The version slider's output shows the version the slider points at while it moves.
document.addEventListener("input", function (event) {
  if (event.target.id === "version-slider") {
    event.target.nextElementSibling.value = event.target.value;
  }
});

// Countdowns (a running clock, a round's time): an element with data-deadline shows the time left, every second. The
// page gives the server's time as it rendered (data-now): the browser's own clock is counted from there, so a browser
// whose clock is wrong still counts down to the server's deadline. Nothing is asked of the server meanwhile.
function clockTime(seconds) {
  // as the server writes them (domain/timeline.py): 9:05, 1:02:03
  var whole = Math.floor(seconds), hours = Math.floor(whole / 3600), minutes = Math.floor(whole / 60) % 60;
  var secs = String(whole % 60).padStart(2, "0");
  return hours ? hours + ":" + String(minutes).padStart(2, "0") + ":" + secs : minutes + ":" + secs;
}

function countDown() {
  document.querySelectorAll("[data-deadline]").forEach(function (element) {
    if (element.dataset.skew === undefined) {
      element.dataset.skew = String(Date.parse(element.dataset.now) - Date.now());
    }
    var serverNow = Date.now() + Number(element.dataset.skew);
    var left = Math.max(0, (Date.parse(element.dataset.deadline) - serverNow) / 1000);
    element.textContent = clockTime(left);
    element.classList.toggle("out", left === 0);
  });
}

countDown();
setInterval(countDown, 1000);
document.addEventListener("htmx:afterSettle", countDown); // a page htmx swapped in: counted from its own data-now
