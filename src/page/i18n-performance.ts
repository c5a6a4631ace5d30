/**
 * The words of the page's performance: the latest session at the top, the chosen range, its
 * charts, and what the page says beside its gains (why the whole history's gain and the total
 * return differ, positions counted at cost, when the figures were brought from the back office).
 * Spread into MESSAGES (src/page/i18n.ts), so every part reads them as `t.…`.
 */
export const PERFORMANCE_WORDS = {
  vi: {
    unpricedAtCost: (_count: number, shown: string, value: string) =>
      `Gồm ${value} của ${shown} mã chưa có giá đóng cửa, tính theo giá vốn.`,
    syncedAt: "Số liệu lấy từ hệ thống của công ty lúc",
    vietnamTime: "(giờ Việt Nam)",
    notSynced: "Số liệu chưa được lấy từ hệ thống của công ty.",
    returnDiffers: (more: boolean, amount: string, pnl: string, reasons: string[]) =>
      `Tổng lợi nhuận ${more ? "cao hơn" : "thấp hơn"} lãi/lỗ trong kỳ ở trên (${pnl}) ${amount}, vì ${reasons.join(" và ")}.`,
    mismatchReason: (_count: number, shown: string) =>
      `${shown} mã mà hệ thống của công ty ghi nhận đang nắm giữ không khớp với lịch sử giao dịch`,
    unmatchedReason: (shown: string) => `lịch sử giao dịch có ${shown} cổ phiếu đã bán mà không có lệnh mua nào`,
    costReason:
      "giá vốn mà hệ thống của công ty ghi nhận cho các mã đang nắm giữ khác với giá vốn bình quân tính từ lịch sử giao dịch",
    performanceToday: "Hôm nay",
    latestSession: "Phiên gần nhất",
    worth: "Giá trị danh mục",
    todayChange: "Thay đổi hôm nay",
    sessionChange: "Thay đổi trong phiên",
    building: "Lịch sử danh mục đang được chuẩn bị. Hãy tải lại trang sau ít phút.",
    noPerformance: "Chưa có giao dịch nào để tính hiệu quả đầu tư.",
    performance: "Hiệu quả đầu tư",
    ranges: "Khoảng thời gian",
    rangeNames: {
      "1d": "1 ngày",
      "1w": "1 tuần",
      "1m": "1 tháng",
      "3m": "3 tháng",
      "6m": "6 tháng",
      ytd: "Từ đầu năm",
      "1y": "1 năm",
      "3y": "3 năm",
      "5y": "5 năm",
      max: "Tất cả",
    } as Record<string, string>,
    invalidRange: (value: string) => `Khoảng thời gian "${value}" không hợp lệ: hãy chọn một trong các liên kết dưới đây.`,
    periodPnl: "Lãi/lỗ trong kỳ",
    twr: "Lợi suất theo thời gian (TWR)",
    mwr: "Lợi suất theo dòng tiền (MWR)",
    mwrNoRoot: "Không có lợi suất nào cân bằng được các dòng tiền trong kỳ.",
    mwrNoPeriod: "Kỳ quá ngắn: tiền chưa được đầu tư qua ngày nào.",
    annualizedTwr: "TWR theo năm",
    annualizedMwr: "MWR theo năm",
    noRate: "Không tính được",
    benchmarkReturn: (code: string) => `${code} (chỉ số giá)`,
    noBenchmark: "Chưa có giá đóng cửa của chỉ số ở đầu kỳ.",
    receivable: "Cổ tức chờ nhận",
    valueChart: "Giá trị danh mục và vốn đầu tư ròng",
    valueChartDesc: (from: string, to: string, value: string, invested: string) =>
      `Từ ${from} đến ${to}: giá trị danh mục đạt ${value}, vốn đầu tư ròng ${invested}.`,
    netInvested: "Vốn đầu tư ròng",
    returnChart: "Lợi suất TWR so với chỉ số",
    returnChartDesc: (from: string, to: string, twr: string, code: string, benchmark: string) =>
      `Từ ${from} đến ${to}: lợi suất TWR ${twr}, ${code} ${benchmark}.`,
  },
  en: {
    unpricedAtCost: (count: number, shown: string, value: string) =>
      `Includes ${value} for ${shown} ${count === 1 ? "position" : "positions"} with no close yet, counted at cost.`,
    syncedAt: "Figures brought from the back office at",
    vietnamTime: "(Vietnam time)",
    notSynced: "Figures not yet brought from the back office.",
    returnDiffers: (more: boolean, amount: string, pnl: string, reasons: string[]) =>
      `Total return is ${amount} ${more ? "more" : "less"} than the gain over the period above (${pnl}) because ${reasons.join(" and ")}.`,
    mismatchReason: (count: number, shown: string) =>
      `the holdings the back office reports for ${shown} ${count === 1 ? "stock disagree" : "stocks disagree"} with the trades`,
    unmatchedReason: (shown: string) => `the trade history has ${shown} shares sold that it never bought`,
    costReason: "the back office reports a different cost for the holdings than the average cost of the trades",
    performanceToday: "Today",
    latestSession: "Latest session",
    worth: "Portfolio value",
    todayChange: "Today's change",
    sessionChange: "Change in the session",
    building: "The portfolio's history is being prepared. Please reload this page in a few minutes.",
    noPerformance: "No trades yet to measure performance by.",
    performance: "Performance",
    ranges: "Period",
    rangeNames: {
      "1d": "1 day",
      "1w": "1 week",
      "1m": "1 month",
      "3m": "3 months",
      "6m": "6 months",
      ytd: "Year to date",
      "1y": "1 year",
      "3y": "3 years",
      "5y": "5 years",
      max: "All",
    } as Record<string, string>,
    invalidRange: (value: string) => `The period "${value}" is not one we know: pick one of the links below.`,
    periodPnl: "Gain over the period",
    twr: "Time-weighted return (TWR)",
    mwr: "Money-weighted return (MWR)",
    mwrNoRoot: "No rate balances the period's money in and out.",
    mwrNoPeriod: "Too short a period: no money was invested for a day.",
    annualizedTwr: "TWR per year",
    annualizedMwr: "MWR per year",
    noRate: "Cannot be computed",
    benchmarkReturn: (code: string) => `${code} (price index)`,
    noBenchmark: "The index has no close at the period's start.",
    receivable: "Dividends receivable",
    valueChart: "Portfolio value and net invested money",
    valueChartDesc: (from: string, to: string, value: string, invested: string) =>
      `From ${from} to ${to}: the portfolio was worth ${value}, with ${invested} net invested.`,
    netInvested: "Net invested",
    returnChart: "Time-weighted return beside the index",
    returnChartDesc: (from: string, to: string, twr: string, code: string, benchmark: string) =>
      `From ${from} to ${to}: a time-weighted return of ${twr}, ${code} ${benchmark}.`,
  },
};
