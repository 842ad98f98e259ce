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
// - Sounder (`sounder`): the recommended 40 mm 8 ohm speaker on the PAM8302A board (the
//   default; 40 mm across, up to 22 mm deep from its face: typical 40 mm 2-3 W speakers are
//   5-20 mm, measure yours), or the budget piezo, Murata PKM17EPPH4001-B0, 17 mm (datasheet).
//   The tray is the same for both: only the lid's ring and sound holes differ, so a piezo box
//   becomes a speaker box by printing a lid.
// - microSD card: 11 mm wide, 1 mm thick (the SD Association's microSD size); where it sits on
//   each board (under the Pi 4/5 at the far end from the USB sockets, 28 mm up the short edge,
//   standing about 2.5 mm out of the edge; on top of the Zero 2 W, 16.9 mm up) is from open CAD
//   models of the boards and photos, NOT Raspberry Pi's drawings: the slot is 5 mm wider than
//   the card for that reason.
// - Heat-set inserts (BOM): M2.5 x 4 mm (about 3.5 mm outside) in 3.6 mm holes for the Pi, M3 x
//   5.7 mm (about 4.6 mm outside) in 4.0 mm holes for the lid: the usual sizes their makers give.
// - Button nuts: typical sellers' hex nuts, 20 mm across flats for 16 mm buttons and 15 mm for
//   12 mm ones; the case keeps their corners (across flats / cos 30) clear of the posts, the
//   walls, the display and each other, however the nut ends up turned.
// - Layout, front to back: the buttons; the display row (the LED, the display, the sounder);
//   the Pi, its microSD end against the right wall (a slot there reaches the card), its back
//   edge clear of the corner posts. Nothing hangs from the lid over the Pi, so the tray is only
//   as tall as the Pi with its plugs. The shutdown button (12 mm) goes through the back wall left
//   of the Pi, the serial leads through a grommet in the left wall.
// - The OLED's standoffs: printed under the lid at its four screws, as tall as the module's
//   glass (typical: measure yours), so the board rests on them and the screws do not bend it
//   against the glass.

board = "pi4";        // "pi4", "pi5" or "zero2"
panel = "ssd1309";    // "ssd1309" (2.42 in), "sh1106" (1.3 in) or "ssd1306" (0.96 in)
button_d = 16;        // panel hole of the four front buttons: 16 or 12
sounder = "speaker";  // "speaker" (40 mm on the PAM8302A, recommended) or "piezo" (budget)
part = "box";         // "box" (the tray), "lid" (the front panel), "both" (a preview), or
                      // "clash": the speaker's body against every other part (empty if it fits)
speaker_shift = [0, 0];  // moves the speaker's body in "clash" (the test's check that a clash shows)

wall = 2.0;           // 4 perimeters of a 0.45 mm line: no gap fill, quick to print
floor_t = 1.5;        // five 0.3 mm layers
lid_t = 2.0;
gap = 3;              // room around a part
post = 8;             // the corner posts the lid screws into, hung from the walls' top
post_len = 18;        // how far down a post reaches ...
post_taper = 10;      // ... its last 10 mm tapering into its corner (under 50 degrees)
insert_d = 4.0;       // M3 x 5.7 heat-set insert's hole in the posts
insert_depth = 7;
lid_screw_d = 3.4;    // M3 clearance in the lid
standoff = 5;         // the Pi's bosses
pi_boss_d = 7.2;      // round the insert, 1.8 mm of wall ...
pi_boss_top = 6;      // ... narrowed to 6 mm for its top 1.5 mm (the board's keep-out)
pi_insert_d = 3.6;    // M2.5 x 4 heat-set insert's hole
pi_insert_depth = 5.5;
plug_room = 20;       // a Dupont housing (14 mm) and the wire's bend, above a header pin
button_hang = 30;     // a panel button's body and lugs below the lid (typical, 16 mm ones)
tolerance = 0.3;
$fn = 40;

// [length, width, tallest part above the board, holes (from the board's corner, the drawing's
//  orientation: power and HDMI along the lower long edge), power connector's x on that edge,
//  microSD centre's y on the short edge at x = 0, the card's side (-1 under the board, 1 on top),
//  how far the far end's sockets stand out of the board (Pi 4/5's USB and Ethernet)].
// The case turns the board half round, so that edge (and the power plug) faces the back wall
// and the microSD end the right wall.
function pi_spec(b) =
    b == "zero2" ? [65, 30, 3, [[3.5, 3.5], [61.5, 3.5], [3.5, 26.5], [61.5, 26.5]], 54, 16.9, 1, 0] :
    /* pi4, pi5 */ [85, 56, 16, [[3.5, 3.5], [61.5, 3.5], [3.5, 52.5], [61.5, 52.5]], 11.2, 28, -1, 3];

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
buzzer_d = 17;                            // the piezo
speaker_d = 40;
speaker_h = 22;
sounder_d = sounder == "speaker" ? speaker_d : buzzer_d;
ring_h = 4;                               // the ring under the lid that holds the sounder
sounder_zone = speaker_d + tolerance + 3.2 + 2;  // always the speaker's room
shutdown_d = 12;                          // the shutdown button, through the back wall
shutdown_nut_d = 15 / cos(30);            // its nut, across the corners
shutdown_body = 22;                       // how far its body and lugs reach into the case
led_d = 5;                                // the status LED, through the lid
led_zone = led_d + 2 * gap;
standoff_d = M[6] + 3.2;                  // the OLED's printed standoffs
card = [11, 1.0, 2.5];                    // microSD: width, thickness, out of the board's edge
card_clear = 1.0;                         // from the card's end to the wall
grommet_d = 10;                           // a rubber grommet for a 10 mm hole ...
grommet_panel = 1.6;                      // ... on a 1.6 mm panel (the wall is thinned round it)

row_d = max(M[1], sounder_zone);          // the display row's depth
in_w = max(P[0] + card[2] + card_clear + P[7] + gap + shutdown_nut_d + gap + post,
           led_zone + M[0] + gap + sounder_zone,
           3 * pitch + nut_d + 2 * post + 2 * gap);
in_d = zone + gap + row_d + gap + P[1] + 1;
pi_tall = max(P[2], 1.6 + 8.5 + plug_room);   // board + header + plugs, or its tallest port
module_hang = M[7] + plug_room;
in_h = max(standoff + 1.6 + pi_tall, module_hang, speaker_h, button_hang) + 1;

W = in_w + 2 * wall;
D = in_d + 2 * wall;
H = floor_t + in_h;                           // the tray; the lid adds lid_t on top

// Where things are, in outside coordinates (x, y on the lid; z for the tray's parts).
buttons = ["BACK", "UP", "DOWN", "NEXT"];     // left to right, as the README says
function button_xy(i) = [W / 2 + (i - 1.5) * pitch, wall + zone / 2];
row_y = wall + zone + gap + row_d / 2;
led_c = [wall + led_zone / 2, row_y];
display_c = [wall + led_zone + M[0] / 2, row_y];
window_c = display_c + M[4];
sounder_c = [W - wall - sounder_zone / 2, row_y];
pi_origin = [W - wall - card_clear - card[2] - P[0], wall + zone + gap + row_d + gap];
pi_z = floor_t + standoff;                    // the board's underside
function pi_hole(h) = pi_origin + [P[0] - h[0], P[1] - h[1]];  // turned half round
cable = [pi_origin[0] + P[0] - P[4], pi_z + 1.6 + 1.6, 13, 9];  // x, z, w, h
card_c = [W - wall - card_clear, pi_origin[1] + P[1] - P[5],
          P[6] < 0 ? pi_z - 0.7 : pi_z + 1.6 + 0.7];   // the card's end: x, y, z
sd_slot = [card_c[1], card_c[2], card[0] + 5, 7];     // y, z, w, h through the right wall
shutdown = [wall + post + gap + shutdown_nut_d / 2, floor_t + in_h / 2];  // x, z
grommet = [D - wall - post - 2 * gap - grommet_d, floor_t + in_h / 2];  // y, z (left wall)
speaker_sound = [for (x = [-12 : 4 : 12], y = [-12 : 4 : 12])
                 if (norm([x, y]) <= 13) [x, y]];
piezo_sound = [[0, 0], [-4, 0], [4, 0], [0, -4], [0, 4], [-3, -3], [3, 3], [-3, 3], [3, -3]];
sound = sounder == "speaker" ? speaker_sound : piezo_sound;

echo("case", board = board, panel = panel, button_d = button_d, sounder = sounder);
echo("outer", W, D, H + lid_t);
echo("shell", wall = wall, floor_t = floor_t, lid_t = lid_t, post = post);
echo("stack", standoff = standoff, pi_tall = pi_tall, module_hang = module_hang, in_h = in_h);
echo("hole", "window", window_c[0], window_c[1], M[2], M[3]);
for (sx = [-1, 1], sy = [-1, 1])
    echo("hole", "oled-screw", display_c[0] + sx * M[5][0] / 2, display_c[1] + sy * M[5][1] / 2, M[6]);
for (i = [0 : 3])
    echo("hole", "button", buttons[i], button_xy(i)[0], button_xy(i)[1], button_d + tolerance);
for (s = sound)
    echo("hole", "sound", sounder_c[0] + s[0], sounder_c[1] + s[1], 2.2);
echo("hole", "cable", cable[0], cable[1], cable[2], cable[3]);
echo("hole", "shutdown", shutdown[0], shutdown[1], shutdown_d + tolerance, shutdown_nut_d,
     shutdown_body);
echo("hole", "led", led_c[0], led_c[1], led_d + 0.2);
echo("hole", "sd", W - wall, sd_slot[0], sd_slot[1], sd_slot[2], sd_slot[3]);
echo("hole", "grommet", 0, grommet[0], grommet[1], grommet_d, grommet_panel);
echo("nut", "button", nut_d);
echo("module", "oled", display_c[0], display_c[1], M[0], M[1], M[7]);
for (sx = [-1, 1], sy = [-1, 1])
    echo("standoff", "oled", display_c[0] + sx * M[5][0] / 2, display_c[1] + sy * M[5][1] / 2,
         standoff_d, M[8]);
for (h = P[3])
    echo("boss", "pi", pi_hole(h)[0], pi_hole(h)[1]);
echo("insert", "pi", pi_boss_d, pi_boss_top, pi_insert_d, pi_insert_depth);
echo("insert", "lid", post, insert_d, insert_depth, post_len);
echo("sounder", sounder, sounder_c[0], sounder_c[1], sounder_d, ring_h);
echo("speaker", sounder_c[0], sounder_c[1], speaker_d, speaker_h);

module corner_posts() {
    for (x = [wall, W - wall - post], y = [wall, D - wall - post])
        translate([x, y, 0]) children();
}

// A corner post hung from the walls' top, so the Pi's corner can sit under it: square for its
// top post_len - post_taper, then tapering into its corner (printable without support).
module hung_post(corner) {
    hull() {
        translate([0, 0, H - post_len + post_taper]) cube([post, post, post_len - post_taper]);
        translate([corner[0] * (post - 0.1), corner[1] * (post - 0.1), H - post_len])
            cube([0.1, 0.1, 0.1]);
    }
}

module pi_boss() {
    cylinder(d = pi_boss_d, h = pi_z - 1.5);
    cylinder(d = pi_boss_top, h = pi_z);
}

module tray() {
    difference() {
        union() {
            difference() {
                cube([W, D, H]);
                translate([wall, wall, floor_t]) cube([in_w, in_d, H]);
            }
            for (cx = [0, 1], cy = [0, 1])
                translate([cx == 0 ? wall : W - wall - post, cy == 0 ? wall : D - wall - post, 0])
                    hung_post([cx, cy]);
            for (h = P[3]) translate([pi_hole(h)[0], pi_hole(h)[1], 0]) pi_boss();
        }
        corner_posts() translate([post / 2, post / 2, H - insert_depth])
            cylinder(d = insert_d, h = insert_depth + 1);
        for (h = P[3])
            translate([pi_hole(h)[0], pi_hole(h)[1], pi_z - pi_insert_depth])
                cylinder(d = pi_insert_d, h = pi_insert_depth + 1);
        // The power cable's way out, through the back wall at the Pi's power connector.
        translate([cable[0] - cable[2] / 2, D - wall - 1, cable[1] - cable[3] / 2])
            cube([cable[2], wall + 2, cable[3]]);
        // The shutdown button's hole in the back wall.
        translate([shutdown[0], D - wall - 1, shutdown[1]]) rotate([-90, 0, 0])
            cylinder(d = shutdown_d + tolerance, h = wall + 2);
        // The microSD card's slot in the right wall, in line with the card.
        translate([W - wall - 1, sd_slot[0] - sd_slot[2] / 2, sd_slot[1] - sd_slot[3] / 2])
            cube([wall + 2, sd_slot[2], sd_slot[3]]);
        // The serial leads' grommet in the left wall, the wall thinned round it.
        translate([-1, grommet[0], grommet[1]]) rotate([0, 90, 0])
            cylinder(d = grommet_d, h = wall + 2);
        translate([grommet_panel, grommet[0], grommet[1]]) rotate([0, 90, 0])
            cylinder(d = grommet_d + 6, h = wall);
        // Vents in both side walls, beside the display row.
        for (x = [-1, W - wall - 1], k = [0 : 3])
            translate([x, wall + zone + gap + 4 + k * 10, floor_t + 6]) cube([wall + 2, 4, in_h - 14]);
    }
}

module sounder_ring() {
    translate([sounder_c[0], sounder_c[1], -ring_h])
        difference() {
            cylinder(d = sounder_d + tolerance + 3.2, h = ring_h);
            translate([0, 0, -1]) cylinder(d = sounder_d + tolerance, h = ring_h + 2);
        }
}

module lid() {
    difference() {
        union() {
            cube([W, D, lid_t]);
            // A ring under the sound holes that holds the sounder (press fit, a drop of glue).
            sounder_ring();
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
            translate([sounder_c[0] + s[0], sounder_c[1] + s[1], -1]) cylinder(d = 2.2, h = lid_t + 2, $fn = 12);
        corner_posts() translate([post / 2, post / 2, -1]) cylinder(d = lid_screw_d, h = lid_t + 2);
    }
}

// What else is in the closed box, as plain solids, for the clash check: the Pi with its
// plugs and its far-end sockets, the display module with its plugs, the buttons' bodies, the
// shutdown button's body, the LED.
module inside_parts() {
    translate([pi_origin[0] - P[7], pi_origin[1], pi_z]) cube([P[0] + P[7], P[1], 1.6 + pi_tall]);
    translate([display_c[0] - M[0] / 2, display_c[1] - M[1] / 2, H - module_hang])
        cube([M[0], M[1], module_hang]);
    for (i = [0 : 3])
        translate([button_xy(i)[0], button_xy(i)[1], H - button_hang])
            cylinder(d = button_d, h = button_hang);
    translate([shutdown[0], D - wall - shutdown_body, shutdown[1]]) rotate([-90, 0, 0])
        cylinder(d = shutdown_nut_d, h = shutdown_body);
    translate([led_c[0], led_c[1], H - 12]) cylinder(d = led_d + 1, h = 12);
}

module speaker_body() {
    translate([sounder_c[0] + speaker_shift[0], sounder_c[1] + speaker_shift[1], H - speaker_h])
        cylinder(d = speaker_d, h = speaker_h - 0.01);
}

if (part == "box") tray();
else if (part == "lid") lid();
else if (part == "clash")
    intersection() {
        speaker_body();
        union() { tray(); translate([0, 0, H]) lid(); inside_parts(); }
    }
else { tray(); translate([0, 0, H + 25]) lid(); }
