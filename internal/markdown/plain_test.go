package markdown

import "testing"

func TestPlain(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Set `NCCL_P2P_DISABLE=1` before **launching**.", "Set NCCL_P2P_DISABLE=1 before launching."},
		{"See [the guide](https://example.com/g) and <https://example.com/x>.", "See the guide and https://example.com/x."},
		{"a <b>raw</b> tag\nand a second line", "a raw tag and a second line"},
		{"plain   text\twith  spaces", "plain text with spaces"},
		{"设置 `NCCL_P2P_DISABLE=1`。", "设置 NCCL_P2P_DISABLE=1。"},
		{"a `` ` `` tick and an `unclosed one", "a ` tick and an `unclosed one"},
		{"`a  b`   and `c`", "a b and c"},
	} {
		if got := Plain(c.in); got != c.want {
			t.Errorf("Plain(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
