#include "core/gameclock.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum {
    /* from about here an exact solve has played the game out: the mover's moves below it
     * take no time and get no share */
    CLOCK_QUICK_EMPTIES = 8,
    CLOCK_MIN_SHARES = 2, /* a move's share: at most half of what is left, and an increment */
    CLOCK_FIELD_SIZE = GGF_TEXT_SIZE /* any field of a record's TI */
};

/* seconds between the GUI's clock and the engine's (pipes, scheduling, the search's stop):
 * a fixed part and a part that grows with the clock, where a slip costs less */
static const double CLOCK_LAG = 0.25, CLOCK_LAG_SHARE = 0.02;
/* of each increment, the part a move spends ahead of receiving it */
static const double CLOCK_INCREMENT_SHARE = 0.9;
static const double CLOCK_MIN_BUDGET = 0.005;

double gameclock_budget(const GameClock *clock, int empties)
{
    double usable = clock->left - CLOCK_LAG - CLOCK_LAG_SHARE * clock->left;
    double share;
    if (clock->moves > 0) {
        share = usable / clock->moves;
    } else {
        int shares = (empties - CLOCK_QUICK_EMPTIES + 1) / 2;
        if (shares < CLOCK_MIN_SHARES)
            shares = CLOCK_MIN_SHARES;
        share = usable / shares + CLOCK_INCREMENT_SHARE * clock->increment;
        if (share > usable) /* an increment arrives after the move, not during it */
            share = usable;
        /* with overtime to follow, the main time running out loses nothing: the move
         * then ends within the first period */
        if (clock->period > 0 && clock->period_moves > 0) {
            double overtime = (clock->period - CLOCK_LAG - CLOCK_LAG_SHARE * clock->period)
                            / clock->period_moves;
            if (overtime > share)
                share = overtime;
        }
    }
    return share > CLOCK_MIN_BUDGET ? share : CLOCK_MIN_BUDGET;
}

/* One TI field, [[H:]M:]S, blanks around it; GGS may follow it with a modifier (",N20",
 * ",30"), which is read past and not used. An empty field is 0. False when it is none. */
static bool parse_duration(const char *text, double *seconds)
{
    const char *at = text, *end = strchr(text, ',');
    if (end) {
        for (const char *c = end + 1; *c; ++c)
            if (!isalnum((unsigned char)*c) && *c != ' ')
                return false;
    } else {
        end = text + strlen(text);
    }
    while (at < end && *at == ' ')
        ++at;
    while (end > at && end[-1] == ' ')
        --end;
    double total = 0;
    int parts = 0;
    while (at < end) {
        if (!isdigit((unsigned char)*at))
            return false;
        double value = 0;
        while (at < end && isdigit((unsigned char)*at))
            value = value * 10 + (*at++ - '0');
        if (at < end && *at == '.') { /* a fraction: the last part only */
            double scale = 0.1;
            if (++at == end || !isdigit((unsigned char)*at))
                return false;
            while (at < end && isdigit((unsigned char)*at)) {
                value += scale * (*at++ - '0');
                scale /= 10;
            }
            if (at != end)
                return false;
        }
        total = total * 60 + value;
        if (++parts > 3 || total > 1e9)
            return false;
        if (at < end && (*at++ != ':' || at == end))
            return false;
    }
    *seconds = total;
    return true;
}

/* Reads `text`, the value of the tag `tag` (for the messages). */
static bool parse_tag(const char *tag, const char *text, GgfClock *clock, OctError *error)
{
    double fields[3] = {0, 0, 0};
    const char *at = text;
    for (int i = 0;; ++i) {
        const char *slash = strchr(at, '/');
        size_t length = slash ? (size_t)(slash - at) : strlen(at);
        char field[CLOCK_FIELD_SIZE];
        if (i >= 3 || length >= sizeof field)
            return error_set(error, "clock %s[%.40s]: expected MAIN[/INCREMENT[/GRACE]], "
                             "each [[H:]M:]S", tag, text);
        memcpy(field, at, length);
        field[length] = '\0';
        if (!parse_duration(field, &fields[i]))
            return error_set(error, "clock %s[%.40s]: '%s' is not a time ([[H:]M:]S)", tag,
                             text, field);
        if (!slash)
            break;
        at = slash + 1;
    }
    *clock = (GgfClock){fields[0], fields[1], fields[2]};
    return true;
}

bool gameclock_parse_ggf(const char *text, GgfClock *clock, OctError *error)
{
    return parse_tag("TI", text, clock, error);
}

/* `text` without its leading spaces. */
static const char *skip_blanks(const char *text)
{
    while (*text == ' ')
        ++text;
    return text;
}

bool gameclock_from_record(const GgfRecord *record, Color side, GameClock *clock,
                           bool *present, OctError *error)
{
    /* GGS writes TB and TW when the two clocks differ: the side's own one wins over TI */
    const char *tag = side == COLOR_BLACK ? "TB" : "TW";
    const char *text = skip_blanks(side == COLOR_BLACK ? record->black_clock
                                                       : record->white_clock);
    if (*text == '\0') {
        tag = "TI";
        text = skip_blanks(record->clock);
    }
    if (*text == '\0') {
        *present = false;
        return true;
    }
    GgfClock ggf;
    if (!parse_tag(tag, text, &ggf, error))
        return false;
    if (ggf.main <= 0 && ggf.increment <= 0 && ggf.grace <= 0) { /* TI[0]: untimed */
        *present = false;
        return true;
    }
    /* the moves played under the clock are those with a time (an opening set up before
     * the game has none): each costs its seconds and earns the increment, a pass included,
     * as octuple-match counts them */
    double left = ggf.main;
    const Game *game = &record->game;
    for (int i = 0; i < game->move_count; ++i) {
        Color mover = (i & 1) ? (Color)(1 - game->start_side) : game->start_side;
        if (mover != side || isnan(record->times[i]))
            continue;
        if (record->times[i] > 0)
            left -= record->times[i];
        left += ggf.increment;
    }
    if (left <= 0) /* the main time is spent: the grace is what is left */
        left += ggf.grace;
    *clock = (GameClock){left, 0, ggf.increment, 0, 0};
    *present = true;
    return true;
}
