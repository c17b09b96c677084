package fleet

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSlurmRecipe runs the Slurm recipe of docs/fleet.md on a real
// one-node Slurm started here (slurmctld, slurmd and munged from Debian),
// with the probe built from this repository, and reads what it wrote with
// the fleet view. This machine has no GPU driver, so the node's report says
// NVML is missing: the node must be named by its host name and judged
// no_nvml. It is skipped where Slurm is not installed or cannot start
// within a minute (it needs root).
func TestSlurmRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Slurm cluster")
	}
	for _, bin := range []string{"slurmctld", "slurmd", "munged", "srun", "sinfo"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("Slurm is not installed (%s): make test installs slurmctld, slurmd, slurm-client and munge as root", bin)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("a test Slurm runs its daemons as root")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	host, err := exec.Command("hostname", "-s").Output()
	if err != nil {
		t.Skipf("hostname -s: %v", err)
	}
	node := strings.TrimSpace(string(host))

	// The probe as the recipe runs it.
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "p2p-probe"), "../../probe")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the probe: %v\n%s", err, out)
	}

	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	start := func(name string, args ...string) {
		cmd := exec.CommandContext(ctx, name, args...)
		log, _ := os.Create(filepath.Join(dir, name+".out"))
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Skipf("start %s: %v", name, err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	}

	// munge: a fresh key and socket of this test's own.
	key := filepath.Join(dir, "munge.key")
	k := make([]byte, 1024)
	for i := range k {
		k[i] = byte(i*7 + 3)
	}
	if err := os.WriteFile(key, k, 0o400); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "munge.socket")
	start("munged", "--foreground", "--force", "--key-file="+key, "--socket="+socket,
		"--pid-file="+filepath.Join(dir, "munged.pid"), "--log-file="+filepath.Join(dir, "munged.log"), "--seed-file="+filepath.Join(dir, "munged.seed"))

	port := func() int {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Addr().(*net.TCPAddr).Port
	}
	conf := filepath.Join(dir, "slurm.conf")
	spool := filepath.Join(dir, "spool")
	os.MkdirAll(spool, 0o755)
	fmt.Fprintf(mustCreate(t, conf), `ClusterName=p2pkbtest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
AuthType=auth/munge
AuthInfo=socket=%[4]s
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/slurmd
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmctldLogFile=%[5]s/slurmctld.log
SlurmdLogFile=%[5]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES State=UP MaxTime=INFINITE
`, node, port(), port(), socket, spool)
	env := append(os.Environ(), "SLURM_CONF="+conf, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	startEnv := func(name string, args ...string) {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Env = env
		log, _ := os.Create(filepath.Join(dir, name+".out"))
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Skipf("start %s: %v", name, err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	}
	startEnv("slurmctld", "-D", "-i", "-f", conf)
	startEnv("slurmd", "-D", "-f", conf, "-N", node)

	ready := false
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		cmd := exec.Command("sinfo", "-h", "-o", "%t")
		cmd.Env = env
		out, err := cmd.Output()
		if err == nil && strings.HasPrefix(strings.TrimSpace(string(out)), "idle") {
			ready = true
			break
		}
	}
	if !ready {
		logs, _ := os.ReadFile(filepath.Join(spool, "slurmd.log"))
		t.Skipf("Slurm did not start within a minute; slurmd said:\n%s", logs)
	}

	// The recipe, less --gpus-per-node: this machine has no GPUs for
	// Slurm to hand out.
	reports := filepath.Join(dir, "reports")
	os.Mkdir(reports, 0o755)
	run := exec.Command("srun", "--nodes=1", "--ntasks-per-node=1", "--exclusive", "bash", "-c", "p2p-probe --test > reports/$(hostname -s).json")
	run.Dir, run.Env = dir, env
	out, _ := run.CombinedOutput() // the probe exits 2 without a driver, and srun says so
	v, err := Read([]string{reports}, Options{})
	if err != nil {
		t.Fatalf("%v\nsrun said:\n%s", err, out)
	}
	if v.Nodes != 1 || len(v.Verdicts) != 1 || v.Verdicts[0].Verdict != NoNVML || v.Verdicts[0].Nodes[0] != node {
		t.Errorf("fleet of the Slurm run: %+v, want node %s judged no_nvml\nsrun said:\n%s", v, node, out)
	}
}

func mustCreate(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
