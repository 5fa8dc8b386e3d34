// The helper the local-path provisioner runs in a short-lived pod on the node to make or remove a volume's folder:
// `local-path-helper -p DIR -s SIZE_BYTES -m Filesystem|Block -a create|delete`. Written for the local environment
// in place of the shell scripts (and the busybox image) the provisioner uses by default, since no image can be pulled
// here and a shell is more than two file operations need.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	path := flag.String("p", "", "the volume's folder")
	flag.String("s", "0", "the requested size in bytes (folders are not limited)")
	mode := flag.String("m", "Filesystem", "the volume mode")
	action := flag.String("a", "", "create or delete")
	flag.Parse()
	if err := run(*path, *mode, *action); err != nil {
		fmt.Fprintln(os.Stderr, "local-path-helper:", err)
		os.Exit(1)
	}
}

func run(path, mode, action string) error {
	if !filepath.IsAbs(path) || filepath.Clean(path) == "/" {
		return fmt.Errorf("refusing path %q: it must be an absolute folder below the volumes folder", path)
	}
	if mode != "Filesystem" {
		return fmt.Errorf("volume mode %q is not supported: only Filesystem volumes are folders", mode)
	}
	switch action {
	case "create":
		// World-writable as the provisioner's own script makes it: the pod using it may run as any user, and a
		// folder volume gets no fsGroup ownership change.
		if err := os.MkdirAll(path, 0o777); err != nil {
			return err
		}
		return os.Chmod(path, 0o777)
	case "delete":
		return os.RemoveAll(path)
	default:
		return fmt.Errorf("unknown action %q: want create or delete", action)
	}
}
