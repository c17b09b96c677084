package paste

import (
	"slices"
	"strings"
)

// Where the GPUs run, said in words or shown by the command that started
// the run: a container ("running in docker", a docker run line, a pod's
// nvidia.com/gpu, srun --container-image), WSL, a virtual machine under a
// hypervisor the VM reader does not name (VMware, libvirt, QEMU's
// GPUDirect clique), a GPU-sharing layer that intercepts CUDA (HAMi's
// libvgpu), or each process seeing only its own GPU (Slurm's per-task GPU
// binding, enroot's device restriction). Each decides where P2P can exist:
// CUDA IPC needs the peer GPU visible in the process, a VM hides the host's
// PCIe topology, an interposer sees every call NCCL makes.

var (
	// A container said or started: "in a docker container", "inside the
	// pod", "under Kubernetes", "using singularity", "to use Docker"
	// (djiajunustc/3D-LLaVA#10), and the commands
	// (docker run, kubectl, srun --container-image, --shm-size, --ipc=host,
	// a pod's nvidia.com/gpu, an NGC image).
	reContainerSaid = pattern("containerSaid", `(?i)\b(?:in|inside|into|within|from|using|use|used|via|under|with|through)\s(?:an?\s|the\s|my\s|our\s|this\s|each\s|one\s|same\s)?(?:[\w.:/-]{1,40}\s){0,2}(?:docker|podman|containers?|pods?|kubernetes|k8s|singularity|apptainer|enroot|pyxis)\b|`+
		`\bdocker\s(?:run|exec|compose|container|pull)\b|\bdocker-compose\b|\bkubectl\b|\bnvidia\.com/gpu\b|--container-image\b|--shm-size\b|--ipc[= ]host\b|\bipc:\s?host\b|\bshm_size:|\bnvcr\.io/|`+
		`\b(?:singularity|apptainer)\s(?:exec|run|shell)\b|\benroot\s(?:start|import|create)\b|容器(?:里|中|内)|(?:docker|k8s|kubernetes)\s?(?:里|中|内|环境)`)
	// A container denied: "without docker", and the run said not to be in
	// one: "Note that my OpenFold3 job is not run in Docker"
	// (aqlaboratory/openfold-3#47), "isn't running inside a container".
	reContainerSaidNot = pattern("containerSaidNot", `(?i)\b(?:no|not|without|outside(?:\sof)?|instead of)\s(?:an?\s|the\s|any\s)?(?:docker|podman|containers?|pods?|kubernetes|k8s)\b|`+
		`(?:\bnot|\bnever|n't)\s(?:\w{1,20}\s){0,2}(?:in|inside|within|using|use|under|via|with|through)\s(?:an?\s|the\s|any\s)?(?:docker|podman|containers?|pods?|kubernetes|k8s)\b`)
	// WSL said: "on WSL2", "WSL 2", "Windows Subsystem for Linux".
	reWSLSaid = pattern("wslSaid", `(?i)\bWSL\s?2?\b|\bWindows Subsystem for Linux\b`)
	// WSL given as advice ("or run your training under a WSL Ubuntu
	// environment") says nothing of where the run is.
	reWSLSaidNot = pattern("wslSaidNot", `(?i)\b(?:not|no|without|outside|instead of|rather than)\s(?:on\s|in\s|under\s|using\s)?(?:the\s)?(?:wsl|windows subsystem)|\b(?:or|try|should|could|can)\s(?:\w{1,20}\s){0,5}(?:under|in|on|with|using)\s(?:an?\s)?wsl`)
	// WSL suspected by the reporter of his own run is where it runs: "Could
	// running Docker in WSL on Windows be the problem?"
	// (NVIDIA/TensorRT-LLM#2864) asks of the setup, it does not advise one.
	reWSLSuspect = pattern("wslSuspect", `(?i)\bwsl\b.{0,60}\b(?:be|is)\s(?:the\s|a\s)?(?:problem|issue|cause|culprit|reason)\b`)
	// A virtual machine under hypervisors the VM reader (prose.go) does not
	// name, or set up for GPUs: VMware and ESXi, vSphere, libvirt, KubeVirt,
	// cloud-hypervisor, QEMU's x-nv-gpudirect-clique, a cloud's VM, NVIDIA
	// vGPU in a guest.
	reVMSaid = pattern("vmSaid", `(?i)\bvmware\b|\bvsphere\b|\besxi\b|\bx-nv-gpudirect-clique\b|\bx_nv_gpudirect_clique\b|\blibvirt\b|\bvirt-manager\b|\bkubevirt\b|\bcloud-hypervisor\b|`+
		`\b(?:azure|gcp|gce|ec2|aws|oci|alibaba|aliyun)\s(?:\w{1,20}\s)?vms?\b|\bNVIDIA vGPU\b|\bvGPU\b.{0,40}\b(?:esxi|vmware|guest|grid|hypervisor)\b|\b(?:esxi|vmware|guest|grid|hypervisor)\b.{0,40}\bvGPU\b|虚拟机`)
	reVMSaidNot = pattern("vmSaidNot", `(?i)\b(?:no|not|without|non|outside)\s(?:an?\s|the\s|any\s)?(?:vmware|esxi|vsphere|libvirt|kubevirt|hypervisor|vgpu)\b`)
	// A GPU-sharing layer that intercepts CUDA in the process: HAMi and its
	// HAMi-core libvgpu.so, Volcano's vGPU plugin, the resource names and
	// limits they set (nvidia.com/gpumem, CUDA_DEVICE_MEMORY_LIMIT).
	reSharing    = pattern("sharing", `\b(?:HAMi|HAMI|hami|Hami)\b|\bHAMI-core\b|\blibvgpu(?:\.so)?\b|\bvolcano-vgpu\b|\bnvidia\.com/(?:gpumem|gpucores|gpumem-percentage)\b|\bCUDA_DEVICE_(?:MEMORY_LIMIT|SM_LIMIT)\b`)
	reSharingNot = pattern("sharingNot", `(?i)\b(?:no|not|without)\s(?:\w{1,20}\s)?(?:hami|libvgpu)\b|\bCUDA_DISABLE_CONTROL=true\b`)
	// Each process sees only its own GPU: Slurm's per-task GPUs and
	// binding, enroot's device restriction, a rank's CUDA_VISIBLE_DEVICES
	// set from its local rank, or said in words ("each task only sees one
	// GPU", "only one GPU is visible to each process").
	reIsolated = pattern("isolated", `--gpus-per-task\b|--gpu-bind[= ](?:single:1|per_task:1|map_gpu)|--tres-bind[= ]gres/gpu:(?:single:1|per_task:1)|\bENROOT_RESTRICT_DEV\b|`+
		`\bCUDA_VISIBLE_DEVICES=\$\{?(?:LOCAL_RANK|SLURM_LOCALID|OMPI_COMM_WORLD_LOCAL_RANK|MPI_LOCALRANKID|PMI_LOCAL_RANK)\b`)
	reIsolatedSaid = pattern("isolatedSaid", `(?i)\b(?:each|every|per)\s(?:\w{1,20}\s)?(?:task|process|rank|worker|pod|container|job)s?\s(?:\w{1,20}\s){0,3}(?:sees?|can (?:only )?see|only sees?)\s(?:only\s)?(?:one|1|a single|its own)\s(?:\w{1,20}\s)?gpu\b|`+
		`\bonly\s(?:one|1|a single)\s(?:\w{1,20}\s)?gpu\s(?:is\s)?(?:visible|exposed)\s(?:to|in)\s(?:each|every)\b`)
	reIsolatedNot = pattern("isolatedNot", `(?i)\bENROOT_RESTRICT_DEV=n\b|--gpu-bind[= ]none\b|--tres-bind[= ]gres/gpu:none\b`)
)

// platformWords are the words, as written, one of which every match of the
// readers above holds besides those of platformNames. Each is rare in
// NCCL's own lines, which are never read for them, and so are its first
// three bytes, which cost the prefilter a walk wherever they are found:
// "bvirt" rather than "libvirt", "S=$" rather than "CUDA_VISIBLE_DEVICES=$".
var platformWords = []string{"Kubernetes", "kubernetes", "KUBERNETES", "k8s", "K8s", "K8S", "pod", "Pod", "POD", "kubectl", ".com/gpu", "m-size", "m_size", "pc=host", "pc host", "pc: host", "pc:host", "cr.io/", "容器", "虚拟机",
	"Subsystem for", "subsystem for",
	"vmware", "VMware", "VMWARE", "Vmware", "vSphere", "vsphere", "VSPHERE", "ESXi", "esxi", "ESXI", "Esxi", "clique", "bvirt", "t-manager", "d-hypervisor", "Azure", "azure", "AWS", "aws", "GCP", "gcp", "GCE", "EC2", "ec2", "OCI", "libaba", "liyun", "vGPU", "vgpu", "VGPU",
	"HAMi", "HAMI", "hami", "Hami", "_LIMIT", "E_CONTROL",
	"s-per-task", "u-bind", "s-bind", "ENROOT_RESTRICT_DEV", "S=$", "sees", "Sees", "can see", "only see", "visible to e", "visible in e", "exposed to e", "exposed in e"}

// platformNames are the words of the container and WSL readers that other
// readers wake on (containerWords, the host reader's, windowsWords).
var platformNames = []string{"docker", "Docker", "DOCKER", "container", "Container", "CONTAINER", "ingularity", "pptainer", "enroot", "pyxis", "WSL", "wsl", "Wsl"}

// platform is the state of these readers.
type platform struct {
	ctr   event // a line that says or shows the run is in a container
	wsl   event // a line that says the run is on WSL
	vm    event // a line that names a hypervisor or a GPU set-up only a VM has
	share event // a line that names a GPU-sharing layer intercepting CUDA
	iso   event // a line that says or sets each process to see only its own GPU
}

// settled says whether these readers have nothing left to find.
func (p *platform) settled() bool {
	return p.ctr.set && p.wsl.set && p.vm.set && p.share.set && p.iso.set
}

// platformLine reads stripped line s; NCCL's own lines (host names of pods,
// "NVLS multicast support") never say where the run is.
func (x *Extractor) platformLine(s string, n int, raw string) {
	p := &x.prose.plat
	if p.settled() || !x.platformWords(s) || strings.Contains(s, "NCCL INFO") {
		return
	}
	if !p.ctr.set && saidOutside(s, reContainerSaid, reContainerSaidNot.FindAllStringIndex(s, -1)) {
		p.ctr.mark(n, raw)
	}
	if !p.wsl.set && containsAny(s, "WSL", "wsl", "Wsl", "Windows Subsystem", "windows subsystem") && reWSLSaid.MatchString(s) && (!reWSLSaidNot.MatchString(s) || reWSLSuspect.MatchString(s)) {
		p.wsl.mark(n, raw)
	}
	if !p.vm.set && reVMSaid.MatchString(s) && !rePlaceNot.MatchString(s) && !reVMSaidNot.MatchString(s) {
		p.vm.mark(n, raw)
	}
	if !p.share.set && reSharing.MatchString(s) && !reSharingNot.MatchString(s) {
		p.share.mark(n, raw)
	}
	if !p.iso.set && (reIsolated.MatchString(s) || reIsolatedSaid.MatchString(s)) && !reIsolatedNot.MatchString(s) {
		p.iso.mark(n, raw)
	}
}

// saidOutside says whether re matches s outside every span of nots, the
// matches of its negations: a negation denies only what it covers ("We do
// not use Docker — this runs under Kubernetes" says Kubernetes).
func saidOutside(s string, re *lazyRegexp, nots [][]int) bool {
	for _, m := range re.FindAllStringIndex(s, -1) {
		if !slices.ContainsFunc(nots, func(x []int) bool { return m[0] < x[1] && x[0] < m[1] }) {
			return true
		}
	}
	return false
}

// platformWake are the readers whose words include platformWords and
// platformNames.
const platformWake = 1<<prosePlatform | 1<<containerHost | 1<<proseContainers | 1<<wslHost | 1<<proseWindows

// platformWords says whether line s holds one of the readers' words: asked
// only of a line that may (woke).
func (x *Extractor) platformWords(s string) bool {
	return x.woke(platformWake) && (containsAny(s, platformWords...) || containsAny(s, platformNames...))
}
