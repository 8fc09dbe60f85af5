// What Pyodide is given as its interrupt buffer in place of the shared buffer Stop writes into
// (python-worker.js). CPython's check (emscripten_signal.c, every 50 bytecode ticks) reads the
// buffer and then writes 0: two steps, so a SIGINT the page wrote between them was overwritten and
// lost, and the page, seeing the buffer back at 0, waited for a run that went on (a busy loop lost
// 49 and 67 of 2,000 Stops under Node, and the page's Stop replaced Python, every variable gone).
// Through this view the read takes the signal in one atomic step and the write of 0 changes
// nothing; a read is a plain load until something is there (a busy loop runs ~4 % slower than with
// the bare buffer, measured under Node). CPython issue 157548, its fix not yet merged: once the
// Pyodide this site pins reads the buffer with Atomics.exchange, the bare buffer will do.

/** A stand-in for `buffer` (an Int32Array on shared memory) with CPython's read-then-clear made one step. */
export function interruptView(buffer) {
  return {
    get 0() { return buffer[0] === 0 ? 0 : Atomics.exchange(buffer, 0, 0); },
    set 0(value) { if (value !== 0) Atomics.store(buffer, 0, value); },
  };
}
