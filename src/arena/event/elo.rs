//! Elo estimates with error bars: a maximum-likelihood Bradley–Terry fit (a draw counts half a win),
//! with a weak prior of one virtual draw against a fixed anchor so unbeaten players stay finite.

/// Elo points per natural-log unit of odds.
const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

/// One player's estimate: `elo ± margin` is a 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub elo: f64,
    pub margin: f64,
}

/// A game's score for the player listed first: 1, 0.5 or 0.
#[derive(Clone, Copy, Debug)]
pub struct Game {
    pub a: usize,
    pub b: usize,
    pub score: f64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fits ratings for `n` players, centred on 1500. Deterministic: Gauss–Seidel Newton sweeps in a fixed
/// order over the games aggregated by pair.
#[must_use]
pub fn fit(n: usize, games: &[Game]) -> Vec<Estimate> {
    // count[i][j]: games between i and j; score[i][j]: i's points in them.
    let mut count = vec![vec![0.0f64; n]; n];
    let mut score = vec![vec![0.0f64; n]; n];
    for g in games {
        count[g.a][g.b] += 1.0;
        count[g.b][g.a] += 1.0;
        score[g.a][g.b] += g.score;
        score[g.b][g.a] += 1.0 - g.score;
    }
    let mut r = vec![0.0f64; n];
    let mut hess = vec![0.0f64; n];
    for _ in 0..500 {
        let mut moved = 0.0f64;
        for i in 0..n {
            // The prior: half a point from one game against the anchor at 0.
            let p = sigmoid(r[i]);
            let mut grad = 0.5 - p;
            let mut h = p * (1.0 - p);
            for j in 0..n {
                if count[i][j] > 0.0 {
                    let p = sigmoid(r[i] - r[j]);
                    grad += score[i][j] - count[i][j] * p;
                    h += count[i][j] * p * (1.0 - p);
                }
            }
            let step = (grad / h).clamp(-1.0, 1.0);
            r[i] += step;
            hess[i] = h;
            moved = moved.max(step.abs());
        }
        if moved < 1e-9 {
            break;
        }
    }
    let mean = if n == 0 {
        0.0
    } else {
        r.iter().sum::<f64>() / n as f64
    };
    r.iter()
        .zip(&hess)
        .map(|(ri, h)| Estimate {
            elo: 1500.0 + (ri - mean) * SCALE,
            margin: 1.96 * SCALE / h.sqrt(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_players_rate_equal_and_a_stronger_one_higher() {
        let even: Vec<Game> = (0..20)
            .map(|k| Game {
                a: k % 2,
                b: 1 - k % 2,
                score: 0.5,
            })
            .collect();
        let e = fit(2, &even);
        assert!((e[0].elo - e[1].elo).abs() < 1e-6);
        assert!((e[0].elo - 1500.0).abs() < 1e-6);

        // 75% against an equal-prior opponent → about 191 Elo apart, shrunk a little by the prior.
        let mut games = Vec::new();
        for k in 0..400 {
            games.push(Game {
                a: 0,
                b: 1,
                score: if k % 4 == 0 { 0.0 } else { 1.0 },
            });
        }
        let e = fit(2, &games);
        let gap = e[0].elo - e[1].elo;
        assert!((180.0..195.0).contains(&gap), "{gap}");
        assert!(e[0].margin > 10.0 && e[0].margin < 60.0, "{:?}", e[0]);
    }

    #[test]
    fn an_unbeaten_player_stays_finite() {
        let games: Vec<Game> = (0..10)
            .map(|_| Game {
                a: 0,
                b: 1,
                score: 1.0,
            })
            .collect();
        let e = fit(2, &games);
        assert!(e[0].elo.is_finite() && e[0].elo > e[1].elo + 200.0, "{e:?}");
    }
}
