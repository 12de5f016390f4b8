"use strict";
// The worker's own part, after Go's wasm_exec.js: it instantiates the compiled module
// the page sends, and answers each input with nsanalyzeRun's report.
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
  }
};
