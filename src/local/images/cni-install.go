// The installer of the hosted clusters' CNI plugins image: run as an init container of the network plugin's
// DaemonSet, it puts the image's plugins into the node's CNI folder and the network's configuration into the node's
// CNI configuration folder. Each file is written beside its destination and renamed over it, so a runtime calling a
// plugin meanwhile sees the old or the new file, never half of one (and a plugin being run is never "text file busy").
//
//	cni-install -plugins /opt/cni/bin -into /host/opt/cni/bin [-conf /etc/kube-flannel/cni-conf.json -conf-into /host/etc/cni/net.d/10-flannel.conflist]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	plugins := flag.String("plugins", "/opt/cni/bin", "the folder of plugins to install")
	into := flag.String("into", "", "the node's CNI plugin folder (mounted from the host)")
	conf := flag.String("conf", "", "a CNI configuration to install")
	confInto := flag.String("conf-into", "", "where the configuration goes on the node")
	flag.Parse()
	if *into == "" || (*conf == "") != (*confInto == "") {
		fmt.Fprintln(os.Stderr, "cni-install: -into is required, and -conf and -conf-into go together")
		os.Exit(2)
	}
	if err := install(*plugins, *into, *conf, *confInto); err != nil {
		fmt.Fprintln(os.Stderr, "cni-install:", err)
		os.Exit(1)
	}
}

func install(plugins, into, conf, confInto string) error {
	entries, err := os.ReadDir(plugins)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(into, 0o755); err != nil {
		return err
	}
	for _, entry := range entries {
		if !entry.Type().IsRegular() {
			continue
		}
		if err := replaceFile(filepath.Join(plugins, entry.Name()), filepath.Join(into, entry.Name()), 0o755); err != nil {
			return err
		}
		fmt.Printf("installed %s\n", filepath.Join(into, entry.Name()))
	}
	if conf == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(confInto), 0o755); err != nil {
		return err
	}
	if err := replaceFile(conf, confInto, 0o644); err != nil {
		return err
	}
	fmt.Printf("installed %s\n", confInto)
	return nil
}

// replaceFile copies from to a temporary file beside to, then renames it over to.
func replaceFile(from, to string, mode os.FileMode) error {
	source, err := os.Open(from)
	if err != nil {
		return err
	}
	defer source.Close()
	temporary, err := os.CreateTemp(filepath.Dir(to), "."+filepath.Base(to)+".")
	if err != nil {
		return err
	}
	defer os.Remove(temporary.Name())
	if _, err := io.Copy(temporary, source); err != nil {
		temporary.Close()
		return err
	}
	if err := temporary.Chmod(mode); err != nil {
		temporary.Close()
		return err
	}
	if err := temporary.Close(); err != nil {
		return err
	}
	return os.Rename(temporary.Name(), to)
}
