const boxes = [];
const add = (name, node) => {
  if (!node) return;
  const style = getComputedStyle(node);
  if (node.hidden || style.display === "none" || style.visibility === "hidden") return;
  const r = node.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return;
  boxes.push({ name, left: r.left, top: r.top, right: r.right, bottom: r.bottom });
};
document.querySelectorAll("#scoreline li").forEach((n, i) => add(`score ${i}`, n));
add("trumps", document.getElementById("trump-info"));
document.querySelectorAll("#seats .seat").forEach((n) => add(`seat ${n.dataset.seat}`, n));
document.querySelectorAll("#trick li").forEach((n) => {
  add(`trick card ${n.dataset.seat}`, n.querySelector(".card, .call-text"));
  add(`trick label ${n.dataset.seat}`, n.querySelector(".who"));
});
add("trick note", document.getElementById("trick-note"));
add("hand heading", document.getElementById("hand-title"));
add("turn", document.getElementById("turn"));
add("last trick button", document.getElementById("show-last"));
add("clock", document.getElementById("clock"));
add("clock notice", document.getElementById("clock-notice"));
document.querySelectorAll("#hand .card").forEach((n) => add(`hand ${n.dataset.card}`, n));
const width = document.documentElement.clientWidth, height = window.innerHeight;
const outside = boxes.filter((b) => b.left < -0.5 || b.top < -0.5 || b.right > width + 0.5 || b.bottom > height + 0.5)
  .map((b) => `${b.name} ${JSON.stringify([Math.round(b.left), Math.round(b.top), Math.round(b.right), Math.round(b.bottom)])}`);
const overlaps = [];
for (let i = 0; i < boxes.length; i += 1) {
  for (let j = i + 1; j < boxes.length; j += 1) {
    const a = boxes[i], b = boxes[j];
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (x > 0.5 && y > 0.5) overlaps.push(`${a.name} / ${b.name}`);
  }
}
return { names: boxes.map((b) => b.name), outside, overlaps, width, height };
