package sandboxtest

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// seizeParent tries PTRACE_SEIZE on each thread of the parent process and
// says which it could trace. Seizing, unlike attaching, does not stop the
// thread, and the tracer's exit detaches it again.
func seizeParent() error {
	ppid := os.Getppid()
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", ppid))
	if err != nil {
		return err
	}
	var refusals []error
	for _, task := range tasks {
		tid, err := strconv.Atoi(task.Name())
		if err != nil {
			continue
		}
		const ptraceSeize = 0x4206
		if _, _, errno := syscall.Syscall6(syscall.SYS_PTRACE, ptraceSeize, uintptr(tid), 0, 0, 0, 0); errno == 0 {
			fmt.Printf("traced thread %d of pid %d\n", tid, ppid)
			return nil
		} else {
			refusals = append(refusals, fmt.Errorf("thread %d: %w", tid, errno))
		}
	}
	return fmt.Errorf("no thread of pid %d could be traced: %w", ppid, errors.Join(refusals...))
}

// tiocsti pushes one character into the input of the controlling terminal.
func tiocsti() error {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer tty.Close()
	c := byte('x')
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, tty.Fd(), syscall.TIOCSTI, uintptr(unsafe.Pointer(&c))); errno != 0 {
		return fmt.Errorf("TIOCSTI: %w", errno)
	}
	fmt.Println("typed into the terminal")
	return nil
}
