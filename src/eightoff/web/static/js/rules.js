// The rules page: the print button opens the browser's print dialog (Save as PDF there).
document.getElementById("print").addEventListener("click", () => window.print());
