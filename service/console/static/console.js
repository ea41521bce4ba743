// The console's only script besides htmx (the pages allow no inline script): the version slider's output shows the
// version the slider points at while it moves. Listened for on the document, so that pages htmx swaps in need nothing.
document.addEventListener("input", function (event) {
  if (event.target.id === "version-slider") {
    event.target.nextElementSibling.value = event.target.value;
  }
});
