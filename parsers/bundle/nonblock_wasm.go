//go:build js || wasip1

package bundle

// nonBlock is 0 where the system has no O_NONBLOCK (WebAssembly): a bundle there is
// read through LoadFS from memory, never from a FIFO.
const nonBlock = 0
