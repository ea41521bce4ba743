// The console's only script besides htmx (the pages allow no inline script). Listened for on the document, so that
// pages htmx swaps in need nothing.

// The version slider's output shows the version the slider points at while it moves.
document.addEventListener("input", function (event) {
  if (event.target.id === "version-slider") {
    event.target.nextElementSibling.value = event.target.value;
  }
});

// Countdowns (a running clock, a round's time): an element with data-deadline shows the time left, every second. The
// page gives the server's time as it rendered (data-now, on a live page's stopped clocks too): the browser's own clock
// is counted from there, so a browser whose clock is wrong still counts down to the server's deadline. Nothing is
// asked of the server meanwhile.
function clockTime(seconds) {
  // as the server writes them (domain/timeline.py): 9:05, 1:02:03
  var whole = Math.floor(seconds), hours = Math.floor(whole / 3600), minutes = Math.floor(whole / 60) % 60;
  var secs = String(whole % 60).padStart(2, "0");
  return hours ? hours + ":" + String(minutes).padStart(2, "0") + ":" + secs : minutes + ":" + secs;
}

function countDown() {
  document.querySelectorAll("[data-now]").forEach(function (element) {
    if (element.dataset.skew === undefined) { // first seen: as the page was rendered
      element.dataset.skew = String(Date.parse(element.dataset.now) - Date.now());
    }
    if (element.dataset.deadline === undefined) {
      return; // a clock standing still, until a message starts it
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

// Live pages: #live-stream names the match's or tournament's stream (the console's own, signed in by its cookie, so
// that no token is in a URL). A message's clocks are shown at once; the newest message of a match's burst (it carries
// the view), or any tournament message, re-fetches the page once and swaps in each part marked data-live that
// changed, keeping what the person has typed.
// Nothing polls: the stream stays open across the page's own swaps and closes when the page shown has none (another
// page, a past version, a match over).
var live = null; // {url, page, source, fetching, again}

function follow() {
  var marker = document.getElementById("live-stream"), url = marker ? marker.dataset.stream : undefined;
  if (live && live.url !== url) {
    live.source.close();
    live = null;
  }
  if (url && !live) {
    var followed = {url: url, page: marker.dataset.page, fetching: false, again: false,
                    source: new EventSource(url + "?from=" + marker.dataset.from)};
    followed.source.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (message.clocks) {
        showClocks(message.clocks);
      }
      if (message.view || message.event) {
        refresh(followed);
      }
    };
    live = followed;
  }
}

// A message's clocks, as the view gives them: the running one counts down to its deadline, the others stand still.
function showClocks(rows) {
  rows.forEach(function (row) {
    var shown = document.querySelector('.clock[data-seat="' + row.seat + '"]');
    var left = shown && shown.querySelector(".left[data-now]");
    if (!left) {
      return;
    }
    shown.classList.toggle("running", row.running);
    if (row.deadline) {
      left.dataset.deadline = row.deadline;
    } else {
      delete left.dataset.deadline;
      left.textContent = clockTime(row.remaining_s);
      left.classList.toggle("out", row.remaining_s === 0);
    }
  });
  countDown();
}

// The page fetched again, once at a time: a burst told meanwhile fetches it once more when this one is in.
function refresh(followed) {
  if (followed.fetching) {
    followed.again = true;
    return;
  }
  followed.fetching = true;
  fetch(followed.page, {headers: {"Accept": "text/html"}})
    .then(function (response) { return response.text(); })
    .then(function (html) {
      if (live === followed) {
        swapParts(new DOMParser().parseFromString(html, "text/html"));
      }
    })
    .catch(function () {}) // the server out of reach: the next message fetches the page again
    .finally(function () {
      followed.fetching = false;
      if (followed.again) {
        followed.again = false;
        refresh(followed);
      }
    });
}

// Each part of the fresh page that differs from the one shown replaces it; a field the person changed (its value no
// longer the page's) keeps the value in the new copy, and the focused one the focus.
function swapParts(fresh) {
  fresh.querySelectorAll("[data-live]").forEach(function (part) {
    var old = document.getElementById(part.id);
    if (!old || old.outerHTML === part.outerHTML) {
      return;
    }
    var focused = null;
    old.querySelectorAll("input[id], select[id], textarea[id]").forEach(function (field) {
      var copy = part.querySelector("#" + CSS.escape(field.id));
      if (copy && changed(field)) {
        copy.value = field.value;
      }
      if (copy && field === document.activeElement) {
        focused = copy;
      }
    });
    old.replaceWith(part);
    htmx.process(part); // its forms boosted as the page's are
    if (focused) {
      focused.focus();
    }
  });
  countDown();
  follow();
}

// Whether the person changed a field: its value is no longer the one the page gave it.
function changed(field) {
  if (field.tagName === "SELECT") {
    return field.selectedIndex >= 0 && !field.options[field.selectedIndex].defaultSelected;
  }
  return field.value !== field.defaultValue;
}

follow();
document.addEventListener("htmx:afterSettle", follow); // a page htmx swapped in: its own stream, or none
document.addEventListener("htmx:historyRestore", follow);
