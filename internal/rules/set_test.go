package rules

import "testing"

// Facts set one by one judge as FromReport's do, and read back as set.
func TestSet(t *testing.T) {
	f := Facts{}
	for _, s := range [][3]string{{"nvlink.present", "bool", "true"}, {"nccl.p2p_used", "bool", "false"},
		{"gpu.count", "num", "2"}, {"nccl.version", "version", "2.18.1"}, {"env.NCCL_P2P_DISABLE", "str", "1"}} {
		if err := f.Set(s[0], s[1], s[2]); err != nil {
			t.Fatal(err)
		}
		if k, v, ok := f.Lookup(s[0]); !ok || k != s[1] || v != s[2] {
			t.Errorf("Lookup(%s) = %s %s %v", s[0], k, v, ok)
		}
	}
	for when, want := range map[string]string{
		"nvlink.present && !nccl.p2p_used": "applies", "gpu.count >= 4": "does_not_apply",
		"nccl.version < 2.19": "applies", "env.NCCL_P2P_DISABLE == \"1\"": "applies", "wsl": "unknown",
	} {
		v, err := Applies(nil, when, f)
		if err != nil || v.Truth.String() != want {
			t.Errorf("%s: %v %v, want %s", when, v, err, want)
		}
	}
	v, _ := Applies(nil, "nvlink.present", f)
	if len(v.Reasons) != 1 || v.Reasons[0] != "NVLink present" {
		t.Errorf("reason %q", v.Reasons)
	}
	for _, bad := range [][3]string{{"no.such", "bool", "true"}, {"wsl", "bool", "maybe"}, {"gpu.count", "num", "two"}, {"wsl", "colour", "x"}} {
		if err := f.Set(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("Set%v: no error", bad)
		}
	}
	if _, _, ok := f.Lookup("wsl"); ok {
		t.Error("Lookup of an unseen fact is ok")
	}
}
