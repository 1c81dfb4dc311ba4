// The parts of StoreKit's interface that OfferKit's Objective-C snippets use, declared as Apple
// documents them (SKPaymentDiscount, SKMutablePayment, SKProduct, SKPaymentQueue).
#pragma once
#import <Foundation/Foundation.h>
@interface SKProduct : NSObject
@property(readonly) NSString *productIdentifier;
@end
@interface SKPaymentDiscount : NSObject
- (instancetype)initWithIdentifier:(NSString *)identifier
                     keyIdentifier:(NSString *)keyIdentifier
                             nonce:(NSUUID *)nonce
                         signature:(NSString *)signature
                         timestamp:(NSNumber *)timestamp;
@end
@interface SKPayment : NSObject
@end
@interface SKMutablePayment : SKPayment
+ (instancetype)paymentWithProduct:(SKProduct *)product;
@property(copy) SKPaymentDiscount *paymentDiscount;
@property(copy) NSString *applicationUsername;
@end
@interface SKPaymentQueue : NSObject
+ (instancetype)defaultQueue;
- (void)addPayment:(SKPayment *)payment;
@end
