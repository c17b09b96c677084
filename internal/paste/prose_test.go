package paste

import "testing"

// GRUB's command line turns translation on with intel_iommu=on,
// amd_iommu=on or iommu=force; passthrough, software bouncing or an IOMMU
// turned off are the fixes (the kernel's admin-guide/kernel-parameters.txt).
func TestGrubIOMMUOn(t *testing.T) {
	for _, c := range []struct {
		line string
		on   bool
	}{
		{`GRUB_CMDLINE_LINUX="intel_iommu=on"`, true},
		{`GRUB_CMDLINE_LINUX_DEFAULT="quiet splash amd_iommu=on"`, true},
		{`GRUB_CMDLINE_LINUX="iommu=force"`, true},
		{`GRUB_CMDLINE_LINUX="intel_iommu=on iommu=pt"`, false},
		{`GRUB_CMDLINE_LINUX_DEFAULT="ipv6.disable=1 mitigations=off amd_iommu=on iommu=pt"`, false},
		{`GRUB_CMDLINE_LINUX="iommu=soft"`, false},
		{`GRUB_CMDLINE_LINUX="amd_iommu=off"`, false},
		{`GRUB_CMDLINE_LINUX="intel_iommu=on iommu.passthrough=1"`, false},
		{`GRUB_CMDLINE_LINUX="quiet splash"`, false},
	} {
		m := reGrubIOMMU.FindString(c.line)
		if got := m != "" && grubIOMMUOn(m); got != c.on {
			t.Errorf("%s: on %v, want %v", c.line, got, c.on)
		}
	}
}
