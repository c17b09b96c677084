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

// bareZero is the gate in front of reLossZero: a line it turns away is
// never matched, so every line the pattern matches with its figure must
// pass it. Every combination of a loss, a verb or separator, a figure and
// what follows is tried, and a table pins what counts as a 0 standing alone.
func TestBareZeroHoldsEveryLossZero(t *testing.T) {
	for s, want := range map[string]bool{
		"loss: 0": true, "loss: 0.0,": true, "loss is 0.": true, "loss 0.000 then": true, "损失为0": true,
		"loss: 0.01": false, "epoch 10": false, "loss 1.0": false, "x0": false, "0.5": false, "0a": false, "": false,
	} {
		if got := bareZero(s); got != want {
			t.Errorf("bareZero(%q) = %v, want %v", s, got, want)
		}
	}
	matched := 0
	for _, loss := range []string{"loss", "Loss", "LOSS", "损失", "the loss"} {
		for _, mid := range []string{" is ", " was always ", " goes to ", " has been ", ": ", "': ", "\": ", " = ", "=", "为", "一直是", " "} {
			for _, fig := range []string{"0", "0.0", "0.000", "00", "0.01", "10", "0.5", "zero", "Zero"} {
				for _, end := range []string{"", " ", ".", ". ", ",", ")", "e", "x", "中", "0", ".5", " steps"} {
					line := loss + mid + fig + end
					if !reLossZero.MatchString(line) {
						continue
					}
					matched++
					if !bareZero(line) && !containsAny(line, zeroWords...) {
						t.Errorf("%q matches reLossZero but its gate turns it away", line)
					}
				}
			}
		}
	}
	if matched < 100 {
		t.Fatalf("only %d lines matched: the combinations no longer exercise the pattern", matched)
	}
}
