// The pause image's program: the process that holds a pod sandbox's namespaces. It sleeps until it is told to stop
// and, being PID 1 of the pod when the pod shares its process namespace, reaps any child that exits so no zombie
// accumulates. Built statically by the local environment (no C toolchain needed, unlike Kubernetes' own pause.c).
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for s := range signals {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}
