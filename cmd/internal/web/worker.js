"use strict";
// The worker's own part, after Go's wasm_exec.js: it instantiates the compiled module
// the page sends, answers each input with nsanalyzeRun's report, and each request for
// another format of the last report with nsanalyzeRender's.
self.nsanalyzeReady = () => self.postMessage({ ready: true });
self.onmessage = async (e) => {
  const m = e.data;
  if (m.module) {
    const go = new Go();
    const instance = await WebAssembly.instantiate(m.module, go.importObject);
    go.run(instance);
    return;
  }
  if (m.files) {
    let result;
    const t0 = performance.now();
    try {
      result = self.nsanalyzeRun(m.files, m.options);
    } catch (err) {
      result = { exitCode: 2, error: "nsanalyze failed: " + err };
    }
    result.workerMs = Math.round(performance.now() - t0);
    self.postMessage({ result });
    return;
  }
  if (m.render) {
    let r;
    try {
      r = self.nsanalyzeRender(m.render);
    } catch (err) {
      r = { error: "nsanalyze failed: " + err };
    }
    self.postMessage({ rendered: { format: m.render, text: r.text, error: r.error } });
  }
};
