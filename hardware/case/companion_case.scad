// The table companion's case: a tray for the Pi and a front panel (the lid) for the display,
// the four buttons and the buzzer. Parametric: tools/case renders every variant to STL and
// a preview; tests/deploy/test_case.py checks the hole table this file echoes.
//
// Units: mm. Origin: the front-left-bottom outside corner of the tray; x to the right, y
// away from the player (the front edge is y = 0), z up. The lid lies on the tray's rim.
//
// Which numbers are what:
// - Raspberry Pi outlines and mounting holes: Raspberry Pi's mechanical drawings (datasheet
//   values): Pi 4 and Pi 5 85 x 56 mm, holes 58 x 49 mm apart, 3.5 mm from the edges; Zero 2 W
//   65 x 30 mm, holes 58 x 23 mm.
// - Display windows: the viewing area of each panel's glass (hardware/README.md).
// - Display module boards and their screw holes: typical sellers' listings, NOT measured here;
//   modules differ: measure yours and change `modules` below before printing.
// - Button holes: the nominal panel-hole size of 16 mm and 12 mm momentary buttons, +0.3 mm.
// - Buzzer: Murata PKM17EPPH4001-B0, 17 mm across (datasheet).
// - Button nuts: typical sellers' hex nuts, 20 mm across flats for 16 mm buttons and 15 mm for
//   12 mm ones; the case keeps their corners (across flats / cos 30) clear of the posts, the
//   walls, the display and each other, however the nut ends up turned.
// - The shutdown button (12 mm) goes through the back wall, away from the cable, above the Pi's
//   tallest part; the status LED (5 mm) through the lid, left of the buzzer.
// - The OLED's standoffs: printed under the lid at its four screws, as tall as the module's
//   glass (typical: measure yours), so the board rests on them and the screws do not bend it
//   against the glass.

board = "pi4";      // "pi4", "pi5" or "zero2"
panel = "ssd1309";  // "ssd1309" (2.42 in), "sh1106" (1.3 in) or "ssd1306" (0.96 in)
button_d = 16;      // panel hole of the four front buttons: 16 or 12
part = "box";       // "box" (the tray), "lid" (the front panel) or "both" (for a preview)

wall = 2.4;
floor_t = 2.4;
lid_t = 3.0;
gap = 3;            // room around a part
post = 8;           // the corner posts the lid screws into (M3 heat-set inserts)
insert_d = 4.0;     // M3 heat-set insert hole
lid_screw_d = 3.4;  // M3 clearance in the lid
standoff = 5;       // the Pi's bosses
pi_boss_d = 6;
pi_hole_d = 2.5;    // M2.5 self-tapping or a 3.6 mm insert: drill out
plug_room = 20;     // a Dupont housing (14 mm) and the wire's bend, above a header pin
tolerance = 0.3;
$fn = 40;

// [length, width, tallest part above the board, holes (from the board's corner, the drawing's
//  orientation: power and HDMI along the lower long edge), power connector's x on that edge].
// The case turns the board half round, so that edge (and the power plug) faces the back wall.
function pi_spec(b) =
    b == "zero2" ? [65, 30, 3, [[3.5, 3.5], [61.5, 3.5], [3.5, 26.5], [61.5, 26.5]], 54] :
    /* pi4, pi5 */ [85, 56, 16, [[3.5, 3.5], [61.5, 3.5], [3.5, 52.5], [61.5, 52.5]], 11.2];

// [board w, board h, window w, window h, window centre offset from the board centre (x, y),
//  screw holes' spacing (x, y), screw hole d, module depth below the lid incl. its pins,
//  glass thickness in front of the board (the standoffs' height)]
function panel_spec(p) =
    p == "ssd1309" ? [70.0, 43.0, 57.0, 29.5, [0, 1.0], [65.0, 38.0], 3.2, 8, 2.2] :
    p == "sh1106"  ? [35.4, 33.5, 31.4, 16.7, [0, 1.5], [30.4, 28.5], 2.2, 8, 1.8] :
    /* ssd1306 */    [27.3, 27.8, 23.7, 12.9, [0, 1.5], [23.5, 23.8], 2.2, 8, 1.6];

P = pi_spec(board);
M = panel_spec(panel);
nut_flats = button_d == 16 ? 20 : 15;     // the front buttons' hex nut (typical)
nut_d = nut_flats / cos(30);              // across its corners: the circle it sweeps
pitch = max(button_d + 12, nut_d + 2);
zone = max(button_d + 10, 24, nut_d + 2); // the buttons' strip along the front, inside
buzzer_d = 17;
buzzer_zone = buzzer_d + 2 * gap;
shutdown_d = 12;                          // the shutdown button, through the back wall
shutdown_nut_d = 15 / cos(30);            // its nut, across the corners
shutdown_body = 22;                       // how far its body and lugs reach into the case
led_d = 5;                                // the status LED, through the lid
standoff_d = M[6] + 3.2;                  // the OLED's printed standoffs

in_w = max(P[0] + 2 * post, M[0] + 2 * gap + 2 * post,
           3 * pitch + nut_d + 2 * post + 2 * gap,
           M[0] + buzzer_zone + 2 * gap + 2 * post);
in_d = max(zone + gap + P[1] + 1, zone + gap + M[1] + gap + buzzer_zone);
pi_tall = max(P[2], 1.6 + 8.5 + plug_room);   // board + header + plugs, or its tallest port
module_hang = M[7] + plug_room;
in_h = standoff + 1.6 + pi_tall + module_hang; // worst case: the module's plugs over the Pi's

W = in_w + 2 * wall;
D = in_d + 2 * wall;
H = floor_t + in_h;                           // the tray; the lid adds lid_t on top

// Where things are, in outside coordinates (x, y on the lid; z for the tray's parts).
buttons = ["BACK", "UP", "DOWN", "NEXT"];     // left to right, as the README says
function button_xy(i) = [W / 2 + (i - 1.5) * pitch, wall + zone / 2];
display_c = [W / 2, wall + zone + gap + M[1] / 2];
window_c = display_c + M[4];
buzzer_c = [W - wall - post - buzzer_zone / 2, D - wall - buzzer_zone / 2];
pi_origin = [wall + (in_w - P[0]) / 2, D - wall - 1 - P[1]];  // the board's lower-left corner
function pi_hole(h) = pi_origin + [P[0] - h[0], P[1] - h[1]];  // turned half round
cable = [pi_origin[0] + P[0] - P[4], floor_t + standoff + 1.6 + 1.6, 14, 9];  // x, z, w, h
// The shutdown button: in the back wall on the side away from the cable slot (the left on a
// Pi 4/5, the right on a Zero 2 W), its nut clear of that corner post, its body above the Pi's
// tallest part (the Pi 4/5's USB and Ethernet block ends up on the left) and its nut clear of
// the lid.
shutdown_x_left = wall + post + gap + shutdown_nut_d / 2;
shutdown = [cable[0] > W / 2 ? shutdown_x_left : W - shutdown_x_left,
            floor_t + standoff + 1.6 + P[2] + 1 + shutdown_nut_d / 2];  // x, z
// The LED: in the lid, on the buzzer's row, in the back-left corner's room.
led_c = [wall + post + gap + 2 * led_d, buzzer_c[1]];
sound = [[0, 0], [-4, 0], [4, 0], [0, -4], [0, 4], [-3, -3], [3, 3], [-3, 3], [3, -3]];

echo("case", board = board, panel = panel, button_d = button_d);
echo("outer", W, D, H + lid_t);
echo("stack", standoff = standoff, pi_tall = pi_tall, module_hang = module_hang, in_h = in_h);
echo("hole", "window", window_c[0], window_c[1], M[2], M[3]);
for (sx = [-1, 1], sy = [-1, 1])
    echo("hole", "oled-screw", display_c[0] + sx * M[5][0] / 2, display_c[1] + sy * M[5][1] / 2, M[6]);
for (i = [0 : 3])
    echo("hole", "button", buttons[i], button_xy(i)[0], button_xy(i)[1], button_d + tolerance);
for (s = sound)
    echo("hole", "sound", buzzer_c[0] + s[0], buzzer_c[1] + s[1], 2.2);
echo("hole", "cable", cable[0], cable[1], cable[2], cable[3]);
echo("hole", "shutdown", shutdown[0], shutdown[1], shutdown_d + tolerance, shutdown_nut_d,
     shutdown_body);
echo("hole", "led", led_c[0], led_c[1], led_d + 0.2);
echo("nut", "button", nut_d);
echo("module", "oled", display_c[0], display_c[1], M[0], M[1], M[7]);
for (sx = [-1, 1], sy = [-1, 1])
    echo("standoff", "oled", display_c[0] + sx * M[5][0] / 2, display_c[1] + sy * M[5][1] / 2,
         standoff_d, M[8]);
for (h = P[3])
    echo("boss", "pi", pi_hole(h)[0], pi_hole(h)[1]);
echo("buzzer", buzzer_c[0], buzzer_c[1], buzzer_d);

module corner_posts(d) {
    for (x = [wall, W - wall - post], y = [wall, D - wall - post])
        translate([x, y, 0]) children();
}

module tray() {
    difference() {
        union() {
            difference() {
                cube([W, D, H]);
                translate([wall, wall, floor_t]) cube([in_w, in_d, H]);
            }
            corner_posts() cube([post, post, H]);
            for (h = P[3])
                translate([pi_hole(h)[0], pi_hole(h)[1], 0])
                    cylinder(d = pi_boss_d, h = floor_t + standoff);
        }
        corner_posts() translate([post / 2, post / 2, H - 8]) cylinder(d = insert_d, h = 9);
        for (h = P[3])
            translate([pi_hole(h)[0], pi_hole(h)[1], 1])
                cylinder(d = pi_hole_d, h = floor_t + standoff);
        // The power cable's way out, through the back wall at the Pi's power connector.
        translate([cable[0] - cable[2] / 2, D - wall - 1, cable[1] - cable[3] / 2])
            cube([cable[2], wall + 2, cable[3]]);
        // The shutdown button's hole in the back wall.
        translate([shutdown[0], D - wall - 1, shutdown[1]]) rotate([-90, 0, 0])
            cylinder(d = shutdown_d + tolerance, h = wall + 2);
        // Vents along both sides, low and high, for air past the Pi.
        for (x = [-1, W - wall - 1], k = [0 : 3])
            translate([x, D / 2 - 18 + k * 10, floor_t + 6]) cube([wall + 2, 4, in_h - 14]);
    }
}

module lid() {
    difference() {
        union() {
            cube([W, D, lid_t]);
            // A ring under the sound holes that holds the buzzer (press fit, a drop of glue).
            translate([buzzer_c[0], buzzer_c[1], -4])
                difference() {
                    cylinder(d = buzzer_d + 3.2, h = 4);
                    translate([0, 0, -1]) cylinder(d = buzzer_d + tolerance, h = 6);
                }
            // The OLED's standoffs: its board rests on them, its glass just touches the lid.
            for (sx = [-1, 1], sy = [-1, 1])
                translate([display_c[0] + sx * M[5][0] / 2, display_c[1] + sy * M[5][1] / 2,
                           -M[8]])
                    cylinder(d = standoff_d, h = M[8] + 0.01);
        }
        translate([window_c[0] - M[2] / 2, window_c[1] - M[3] / 2, -1]) cube([M[2], M[3], lid_t + 2]);
        for (sx = [-1, 1], sy = [-1, 1])
            translate([display_c[0] + sx * M[5][0] / 2, display_c[1] + sy * M[5][1] / 2,
                       -M[8] - 1])
                cylinder(d = M[6], h = lid_t + M[8] + 2);
        translate([led_c[0], led_c[1], -1]) cylinder(d = led_d + 0.2, h = lid_t + 2);
        for (i = [0 : 3])
            translate([button_xy(i)[0], button_xy(i)[1], -1]) cylinder(d = button_d + tolerance, h = lid_t + 2);
        for (s = sound)
            translate([buzzer_c[0] + s[0], buzzer_c[1] + s[1], -1]) cylinder(d = 2.2, h = lid_t + 2, $fn = 12);
        corner_posts() translate([post / 2, post / 2, -1]) cylinder(d = lid_screw_d, h = lid_t + 2);
    }
}

if (part == "box") tray();
else if (part == "lid") lid();
else { tray(); translate([0, 0, H + 25]) lid(); }
