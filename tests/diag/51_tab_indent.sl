surface test()
{
	float x = 1;
		x = undefinedname * 2;
	Ci = x;
}

/* EXPECT
51_tab_indent.sl:4:7: error: unknown identifier 'undefinedname'
		x = undefinedname * 2;
		    ^
*/
