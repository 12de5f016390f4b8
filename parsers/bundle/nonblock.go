//go:build !js && !wasip1

package bundle

import "syscall"

// nonBlock opens a file without blocking should it be a FIFO or a device (openRegular).
const nonBlock = syscall.O_NONBLOCK
