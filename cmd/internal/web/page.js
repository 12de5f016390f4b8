"use strict";
// The page's only script (its hash is in the Content-Security-Policy). The analyser
// runs in a worker made from the text of #nsanalyze-worker (Go's wasm_exec.js and
// worker.js), so the page stays responsive; a worker that takes longer than the
// watchdog allows is ended and the input refused.
(() => {
  const $ = (id) => document.getElementById(id);
  const status = $("status");
  // a hostile input is refused after this long: 60 s, or #watchdog=SECONDS in the URL
  const wd = /[#&]watchdog=(\d+)/.exec(location.hash);
  const WATCHDOG_MS = (wd ? Number(wd[1]) : 60) * 1000;
  let module = null;
  let worker = null;
  let ready = false;
  let pending = null; // the input waiting for the worker
  let report = null;
  let watchdog = 0;
  let started = 0; // when the input was given (its files read from then on)
  let given = 0;

  function say(text, kind) {
    status.textContent = text;
    status.className = kind || "";
  }

  function fail(text) {
    document.body.dataset.exitCode = "2";
    say("Not analysed: " + text.split("\n")[0], "error");
    $("error").textContent = text;
    $("error").hidden = false;
    $("result").hidden = true;
  }

  function bytesOf(b64) {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(b64);
    const s = atob(b64);
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  function spawn() {
    ready = false;
    const url = URL.createObjectURL(new Blob([$("nsanalyze-worker").textContent], { type: "text/javascript" }));
    worker = new Worker(url);
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.ready) {
        URL.revokeObjectURL(url);
        ready = true;
        document.body.dataset.ready = "true";
        if (pending) run(pending);
        else if (!report) say("Ready: drop a bundle or paste a ticket.");
        return;
      }
      if (m.result) done(m.result);
      if (m.rendered) rendered(m.rendered);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      clearTimeout(watchdog);
      const busy = document.body.dataset.busy === "true";
      document.body.dataset.busy = "false";
      worker.terminate();
      fail("the analyser stopped: " + (e.message || "an error in the worker") + (busy ? " (the input may be too large for a browser; run nsanalyze on the command line)" : ""));
      spawn();
    };
    worker.postMessage({ module });
  }

  function run(input) {
    pending = null;
    if (!ready) {
      pending = input;
      say("Loading the analyser…");
      return;
    }
    say("Analysing " + input.label + "…");
    document.body.dataset.busy = "true";
    started = given || performance.now();
    given = 0;
    const options = { redact: $("redact").checked, namespaces: $("namespaces").value };
    const transfer = input.files.map((f) => f.data.buffer);
    worker.postMessage({ files: input.files, options }, transfer);
    watchdog = setTimeout(() => {
      worker.terminate();
      document.body.dataset.busy = "false";
      fail("refused: reading " + input.label + " did not end within " + WATCHDOG_MS / 1000 +
        " s. A hostile archive (a decompression bomb?) or a bundle too large for a browser; run nsanalyze on the command line, which caps what an archive may inflate to.");
      spawn();
    }, WATCHDOG_MS);
  }

  function done(r) {
    clearTimeout(watchdog);
    document.body.dataset.busy = "false";
    document.body.dataset.elapsed = String(Math.round(performance.now() - started));
    document.body.dataset.exitCode = String(r.exitCode);
    document.body.dataset.analysisMs = String(r.elapsedMs); // of which in nsanalyze itself
    // (reading, analysing, writing the reports; and in the worker in all, with the copies
    // of the input into the module and of the reports out of it)
    document.body.dataset.phasesMs = [r.readMs, r.analysisMs, r.renderMs, r.workerMs].join(" ");
    const notes = $("notes");
    notes.textContent = "";
    for (const n of r.notes || []) {
      const li = document.createElement("li");
      li.textContent = n;
      notes.appendChild(li);
    }
    if (r.error) {
      report = null;
      fail(r.error);
      return;
    }
    report = r;
    $("error").hidden = true;
    const kind = { stuck: "stuck", "none-stuck": "fine" }[r.state] || "unknown";
    say(r.summary, kind);
    $("report").srcdoc = r.html;
    $("result").hidden = false;
  }

  // the reports but the HTML one are written when first downloaded
  function download(format) {
    if (!report) return;
    if (report[format] === undefined) {
      if (document.body.dataset.busy === "true") return;
      report.want = format;
      say("Writing the " + format + " report…");
      worker.postMessage({ render: format });
      return;
    }
    save(format);
  }

  function rendered(m) {
    if (!report || report.want !== m.format) return;
    report.want = "";
    if (m.error) {
      say("The " + m.format + " report could not be written: " + m.error, "error");
      return;
    }
    report[m.format] = m.text;
    say(report.summary, { stuck: "stuck", "none-stuck": "fine" }[report.state] || "unknown");
    save(m.format);
  }

  function save(format) {
    const ext = { html: "html", json: "json", markdown: "md", text: "txt" }[format];
    const type = { html: "text/html", json: "application/json", markdown: "text/markdown", text: "text/plain" }[format];
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([report[format]], { type: type + ";charset=utf-8" }));
    a.download = "nsanalyze-report." + ext;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  async function readFiles(list, nameOf) {
    const files = [];
    for (const f of list) files.push({ name: nameOf(f), data: new Uint8Array(await f.arrayBuffer()), lastModified: f.lastModified });
    return files;
  }

  function entryFile(entry) {
    return new Promise((resolve, reject) => entry.file(resolve, reject));
  }

  // walk reads a dropped file or folder (FileSystemEntry) into files.
  async function walk(entry, files) {
    if (entry.isFile) {
      const f = await entryFile(entry);
      files.push({ name: entry.fullPath.replace(/^\/+/, ""), data: new Uint8Array(await f.arrayBuffer()), lastModified: f.lastModified });
      return;
    }
    if (!entry.isDirectory) return;
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (!batch.length) break;
      for (const e of batch) await walk(e, files);
    }
  }

  function label(files) {
    if (files.length === 1) return files[0].name;
    const top = files[0].name.split("/")[0];
    return files.every((f) => f.name.startsWith(top + "/")) ? top + "/ (" + files.length + " files)" : files.length + " files";
  }

  async function onDrop(e) {
    e.preventDefault();
    given = performance.now();
    $("drop").classList.remove("over");
    const dt = e.dataTransfer;
    const files = [];
    try {
      // folders are walked as entries; files are read as the File objects dropped
      const entries = [...dt.items].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
      if (entries.some((en) => en.isDirectory)) {
        for (const en of entries) await walk(en, files);
      } else if (dt.files.length) {
        files.push(...(await readFiles(dt.files, (f) => f.name)));
      } else if (dt.getData("text/plain")) {
        $("paste").value = dt.getData("text/plain");
        analysePaste();
        return;
      }
    } catch (err) {
      fail("cannot read what was dropped: " + err);
      return;
    }
    if (!files.length) {
      fail("nothing was dropped that can be read (an empty folder?)");
      return;
    }
    run({ label: label(files), files });
  }

  function analysePaste() {
    given = performance.now();
    const text = $("paste").value;
    if (!text.trim()) {
      fail("the text box is empty: paste a ticket, a command's output or a log");
      return;
    }
    run({ label: "the pasted text", files: [{ name: "pasted.txt", data: new TextEncoder().encode(text) }] });
  }

  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", onDrop);
  // a drop beside the zone must not navigate away from the page
  window.addEventListener("dragover", (e) => e.preventDefault());
  window.addEventListener("drop", (e) => { if (!drop.contains(e.target)) onDrop(e); });
  $("analyse-paste").addEventListener("click", analysePaste);
  $("pick-files").addEventListener("change", async (e) => {
    given = performance.now();
    const files = await readFiles(e.target.files, (f) => f.name);
    e.target.value = "";
    if (files.length) run({ label: label(files), files });
  });
  $("pick-folder").addEventListener("change", async (e) => {
    given = performance.now();
    const files = await readFiles(e.target.files, (f) => f.webkitRelativePath || f.name);
    e.target.value = "";
    if (files.length) run({ label: label(files), files });
  });
  for (const b of document.querySelectorAll("#downloads button")) {
    b.addEventListener("click", () => download(b.dataset.format));
  }

  // the module is gzip-compressed in the page: inflated by the browser (a stream made
  // from the page's own bytes; nothing is fetched), then compiled
  async function compile() {
    const gz = new Blob([bytesOf($("nsanalyze-wasm").textContent.trim())]);
    const wasm = await new Response(gz.stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    return WebAssembly.compile(wasm);
  }

  const t0 = performance.now();
  compile().then((m) => {
    module = m;
    $("nsanalyze-wasm").textContent = ""; // the base64 text is no longer needed
    spawn();
    document.body.dataset.compileMs = String(Math.round(performance.now() - t0));
  }, (err) => fail("this browser cannot run the analyser (WebAssembly): " + err));
})();
