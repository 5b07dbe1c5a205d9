// Opens pages in headless Chromium (puppeteer-core) with the network cut off
// and fails on anything a reader would see go wrong: a console error or
// warning, a page error, a dialog (an alert() that hostile text smuggled in),
// a request for anything but the page itself, a chart not drawn, markup that
// came from data. Writes a full-page PNG of each.
//   node html_check.cjs MODULES_DIR CHROMIUM --page FILE --charts N [--shot FILE.png] [--text TEXT]... [--wrong N] [--page ...]
// --charts: how many charts the page must draw (the others say "not measured");
// --text: a string the page must show as text (a hostile name, say);
// --wrong: how many marks the page's counterexample pictures draw in the
// wrong colour (html_report.h's kWrongColour: wrong vertices, wrong cells).
"use strict";
const path = require("path");
const { pathToFileURL } = require("url");

const [modules, chromium, ...rest] = process.argv.slice(2);
const pages = [];
for (let i = 0; i < rest.length; i += 2) {
  const [flag, value] = [rest[i], rest[i + 1]];
  if (value === undefined) throw new Error(`${flag} needs a value`);
  if (flag === "--page") pages.push({ file: path.resolve(value), texts: [], charts: -1 });
  else if (flag === "--charts") pages[pages.length - 1].charts = Number(value);
  else if (flag === "--shot") pages[pages.length - 1].shot = value;
  else if (flag === "--text") pages[pages.length - 1].texts.push(value);
  else if (flag === "--wrong") pages[pages.length - 1].wrong = Number(value);
  else throw new Error(`unknown argument ${flag}`);
}
const puppeteer = require(path.join(modules, "puppeteer-core"));

// In the page: every chart the data block names is an <svg> with drawn marks;
// the only scripts are the page's own five; no element carries an on* handler.
function inspect() {
  const specs = JSON.parse(document.getElementById("grading-charts").textContent);
  const charts = Object.keys(specs).map((id) => {
    const svg = document.querySelector(`#${id} svg`);
    const marks = svg ? svg.querySelectorAll(".role-mark > path, .role-mark > line, .role-mark > text, .role-mark > g").length : 0;
    const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
    return { id, svg: !!svg, marks, width: box.width, height: box.height };
  });
  const handlers = [...document.querySelectorAll("*")].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name)));
  return {
    state: document.body.getAttribute("data-charts"),
    charts,
    containers: document.querySelectorAll("div.vega").length,
    scripts: document.scripts.length,
    handlers: handlers.map((e) => e.tagName),
    text: document.body.innerText,
    pictures: document.querySelectorAll("section.counterexamples div.vega svg").length,
    wrong: [...document.querySelectorAll("section.counterexamples .role-mark path")].filter(
      (p) => p.getAttribute("fill") === "#d62728" || p.getAttribute("stroke") === "#d62728").length,
  };
}

async function check(browser, page) {
  const problems = [];
  const tab = await browser.newPage();
  const url = pathToFileURL(page.file).href;
  await tab.setRequestInterception(true);
  tab.on("request", (r) => {
    if (r.url() === url || r.url().startsWith("data:") || r.url().startsWith("blob:")) return r.continue();
    problems.push(`requested ${r.url()} (a page must work offline)`);
    r.abort();
  });
  tab.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warn" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  tab.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  tab.on("dialog", (d) => {
    problems.push(`a ${d.type()} dialog opened: "${d.message()}" (text ran as script)`);
    d.dismiss();
  });
  await tab.setViewport({ width: 1100, height: 900 });
  await tab.goto(url, { waitUntil: "load" });
  await tab.waitForFunction(() => document.body.hasAttribute("data-charts"), { timeout: 30000 });
  const got = await tab.evaluate(inspect);
  if (got.state !== "done") problems.push(`charts ended "${got.state}"`);
  if (got.charts.length !== page.charts) problems.push(`${got.charts.length} charts in the data block, want ${page.charts}`);
  if (got.containers !== got.charts.length) problems.push(`${got.containers} chart containers for ${got.charts.length} specs`);
  for (const c of got.charts) {
    if (!c.svg || c.marks === 0 || c.width < 50 || c.height < 20) {
      problems.push(`chart ${c.id} not drawn (svg ${c.svg}, ${c.marks} marks, ${c.width} x ${c.height} px)`);
    }
  }
  if (got.scripts !== 5) problems.push(`${got.scripts} <script> elements, want 5 (data, three libraries, charts.js)`);
  if (got.handlers.length) problems.push(`elements with an on* attribute: ${got.handlers.join(", ")}`);
  for (const t of page.texts) {
    if (!got.text.includes(t)) problems.push(`the text ${JSON.stringify(t)} is not shown as text`);
  }
  if (page.wrong !== undefined && got.wrong !== page.wrong) {
    problems.push(`${got.wrong} marks drawn wrong in ${got.pictures} counterexample pictures, want ${page.wrong}`);
  }
  if (page.shot) await tab.screenshot({ path: page.shot, fullPage: true });
  await tab.close();
  console.log(`${problems.length ? "FAIL" : "ok  "} ${page.file}: ${got.charts.length} charts drawn` +
              (page.shot ? `, screenshot ${page.shot}` : ""));
  for (const p of problems) console.log(`     ${p}`);
  return problems.length === 0;
}

(async () => {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    // --no-sandbox: CI runs as root in a container, where Chromium's own sandbox cannot start.
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  let ok = true;
  try {
    for (const page of pages) ok = (await check(browser, page)) && ok;
  } finally {
    await browser.close();
  }
  process.exit(ok ? 0 : 1);
})().catch((e) => {
  console.error(`html_check: ${e.stack || e}`);
  process.exit(1);
});
